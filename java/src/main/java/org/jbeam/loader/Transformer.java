package org.jbeam.loader;

import static org.jbeam.loader.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.bif.BifTable;
import org.jbeam.code.*;
import org.jbeam.loader.CodeReader.Operand;
import org.jbeam.term.*;

/**
 * Turns a parsed {@link BeamFile} into a {@link BeamModule} of pre-decoded {@link Instr}s: labels
 * resolved to instruction indexes, literals into a constant pool, imports bound to export-table
 * entries, line instructions folded into each instruction's location, and the bodies of
 * natively implemented functions (BIFs/NIFs in the {@link BifTable}) replaced by a native call.
 */
public final class Transformer {
    private final BeamFile file;
    private final ExportTable exports;
    private final BifTable bifs;
    private final BeamModule mod;
    private final List<Term> consts = new ArrayList<>();
    private final Map<Term, Integer> constIndex = new HashMap<>();
    private final List<Instr> out = new ArrayList<>();
    private final List<Operand[]> pending = new ArrayList<>(); // operands of out[i], resolved in pass 2
    private int[] labelPc;
    private Export[] imports;

    private Transformer(BeamFile file, ExportTable exports, BifTable bifs) {
        this.file = file; this.exports = exports; this.bifs = bifs;
        this.mod = new BeamModule(file.module());
    }

    public static BeamModule transform(BeamFile file, ExportTable exports, BifTable bifs) throws LoadError {
        return new Transformer(file, exports, bifs).run();
    }

    private BeamModule run() throws LoadError {
        imports = new Export[file.imports.size()];
        for (int i = 0; i < imports.length; i++) {
            BeamFile.Import im = file.imports.get(i);
            imports[i] = exports.get(im.module(), im.function(), im.arity());
        }
        labelPc = new int[file.labelCount + 1];
        java.util.Arrays.fill(labelPc, -1);
        decode();
        resolve();
        mod.consts = consts.toArray(new Term[0]);
        mod.lines = file.lines;
        mod.code = out.toArray(new Instr[0]);
        buildFunctions();
        return mod;
    }

    // ---- pass 1: decode the instruction stream, record labels and lines ----

    private void decode() throws LoadError {
        CodeReader r = new CodeReader(file.code, file.codeHeaderOffset, file.code.length - file.codeHeaderOffset, "Code", file);
        // Instruction 0 is a sentinel so that pc 0 can mean "no label".
        emit(new Instr(INT_CODE_END), new Operand[0]);
        int line = 0;
        boolean ended = false;
        while (!r.atEnd()) {
            int at = r.pos;
            int op = r.u8();
            if (!Opcodes.known(op)) throw LoadError.badfile("Code at offset " + at + ": unknown opcode " + op);
            if (Opcodes.obsolete(op)) throw LoadError.badfile("Code at offset " + at + ": obsolete instruction " + Opcodes.name(op) + " (please re-compile this module with an OTP 25 compiler)");
            Operand[] ops = new Operand[Opcodes.arity(op)];
            for (int i = 0; i < ops.length; i++) ops[i] = r.operand();
            switch (op) {
                case LABEL -> {
                    int l = (int) u(ops[0], at);
                    if (l < 1 || l > file.labelCount) throw LoadError.badfile("Code at offset " + at + ": label " + l + " out of range");
                    labelPc[l] = out.size();
                }
                case LINE -> {
                    line = (int) u(ops[0], at);
                    if (line >= file.lines.size() && file.lines != LineTable.EMPTY) line = 0;
                }
                case INT_CODE_END -> { ended = true; }
                case TEST_HEAP, FCLEARERROR, FCHECKERROR, RECV_MARK, RECV_SET, NIF_START -> {}
                default -> {
                    Instr ins = new Instr(op);
                    ins.line = line;
                    emit(ins, ops);
                }
            }
            if (ended) break;
        }
        if (!ended) throw LoadError.badfile("Code: missing int_code_end");
        emit(new Instr(INT_CODE_END), new Operand[0]);
    }

    private void emit(Instr i, Operand[] ops) { out.add(i); pending.add(ops); }

    private static long u(Operand o, int at) throws LoadError {
        if (o instanceof Operand.U u) return u.value();
        if (o instanceof Operand.Lit l && l.term() instanceof ESmall s) return s.value;
        throw LoadError.badfile("Code at offset " + at + ": expected an unsigned operand, got " + o);
    }

    // ---- pass 2: operands ----

    private LoadError bad(int pc, String msg) {
        return LoadError.badfile("Code: instruction " + Opcodes.name(out.get(pc).op) + " (#" + pc + "): " + msg);
    }

    private int label(Operand o, int pc) throws LoadError {
        if (!(o instanceof Operand.Label l)) throw bad(pc, "expected a label, got " + o);
        if (l.n() == 0) return 0;
        if (l.n() < 0 || l.n() >= labelPc.length || labelPc[l.n()] < 0) throw bad(pc, "undefined label " + l.n());
        return labelPc[l.n()];
    }

    private int konst(Term t) {
        Integer i = constIndex.get(t);
        if (i != null && consts.get(i).getClass() == t.getClass()) return Instr.K | i;
        consts.add(t);
        constIndex.putIfAbsent(t, consts.size() - 1);
        return Instr.K | (consts.size() - 1);
    }

    /**
     * A source operand: register or constant. instanceof tests rather than a pattern switch: a
     * type switch is an invokedynamic whose bootstrap spins a class at first use (the AOT cache
     * does not keep those), and until C2 has inlined it every operand of every module loaded at
     * boot went through its method handle (ADR 0042).
     */
    private int src(Operand o, int pc) throws LoadError {
        if (o instanceof Operand.X x) return Instr.X | x.n();
        if (o instanceof Operand.Y y) return Instr.Y | y.n();
        if (o instanceof Operand.Lit l) return konst(l.term());
        if (o instanceof Operand.Atom a) return konst(a.atom());
        if (o instanceof Operand.U u) return konst(EInteger.of(u.value()));
        if (o instanceof Operand.FR f) return Instr.FR | f.n();
        throw bad(pc, "bad source operand " + o);
    }

    /** A destination: x or y register (or float register where allowed). */
    private int dst(Operand o, int pc) throws LoadError {
        if (o instanceof Operand.X x) return Instr.X | x.n();
        if (o instanceof Operand.Y y) return Instr.Y | y.n();
        if (o instanceof Operand.FR f) return Instr.FR | f.n();
        throw bad(pc, "bad destination operand " + o);
    }

    private int ui(Operand o, int pc) throws LoadError {
        long v = u(o, pc);
        if (v < 0 || v > Integer.MAX_VALUE) throw bad(pc, "operand out of range");
        return (int) v;
    }

    private Export imp(Operand o, int pc) throws LoadError {
        long i = u(o, pc);
        if (i < 0 || i >= imports.length) throw bad(pc, "import index " + i + " out of range");
        return imports[(int) i];
    }

    private Operand[] list(Operand o, int pc) throws LoadError {
        if (o instanceof Operand.List l) return l.items();
        throw bad(pc, "expected a list operand");
    }

    private int[] srcList(Operand o, int pc) throws LoadError {
        Operand[] items = list(o, pc);
        int[] r = new int[items.length];
        for (int i = 0; i < items.length; i++) r[i] = src(items[i], pc);
        return r;
    }

    private ReturnAddr ret(int pc) {
        return new ReturnAddr(mod, pc + 1, null, out.get(pc).line);
    }

    private void resolve() throws LoadError {
        Operands.resolveAll(this);
    }

    // Accessors used by Operands (kept package-private; Operands holds the per-opcode table).
    int size() { return out.size(); }
    Instr instr(int pc) { return out.get(pc); }
    Operand[] ops(int pc) { return pending.get(pc); }
    int labelOf(Operand o, int pc) throws LoadError { return label(o, pc); }
    int srcOf(Operand o, int pc) throws LoadError { return src(o, pc); }
    int dstOf(Operand o, int pc) throws LoadError { return dst(o, pc); }
    int uOf(Operand o, int pc) throws LoadError { return ui(o, pc); }
    Export importOf(Operand o, int pc) throws LoadError { return imp(o, pc); }
    Operand[] listOf(Operand o, int pc) throws LoadError { return list(o, pc); }
    int[] srcListOf(Operand o, int pc) throws LoadError { return srcList(o, pc); }
    ReturnAddr retOf(int pc) { return ret(pc); }
    LoadError badAt(int pc, String msg) { return bad(pc, msg); }
    int constOf(Term t) { return konst(t); }
    BeamModule module() { return mod; }
    BeamFile beam() { return file; }
    Term constant(int k) { return consts.get(k & Instr.INDEX_MASK); }

    // ---- functions, exports, funs ----

    private void buildFunctions() throws LoadError {
        List<FuncInfo> fs = new ArrayList<>();
        Instr[] code = mod.code;
        for (int pc = 0; pc < code.length; pc++) {
            if (code[pc].op == FUNC_INFO) {
                Instr fi = code[pc];
                FuncInfo f = new FuncInfo(mod, (EAtom) fi.t, fi.c, pc);
                f.entry = pc + 1;
                fi.o = f;
                if (!fs.isEmpty()) fs.get(fs.size() - 1).end = pc;
                fs.add(f);
            }
        }
        if (!fs.isEmpty()) fs.get(fs.size() - 1).end = code.length;
        mod.functions = fs.toArray(new FuncInfo[0]);
        // Return addresses and catch tags know their function (for stack traces).
        for (int pc = 0; pc < code.length; pc++) {
            Instr in = code[pc];
            if (in.ret != null) in.ret = new ReturnAddr(mod, in.ret.pc, mod.functionAt(pc), in.ret.line);
        }
        // -on_load: the function holding the on_load instruction runs before the exports go live.
        for (int pc = 0; pc < code.length; pc++) {
            if (code[pc].op == ON_LOAD) {
                FuncInfo f = mod.functionAt(pc);
                if (f != null) mod.onLoadPc = f.entry;
            }
        }
        // Natively implemented functions: replace the body's first instruction.
        List<Instr> kept = new ArrayList<>();
        List<FuncInfo> keptFns = new ArrayList<>();
        for (FuncInfo f : mod.functions) {
            BifTable.Entry e = bifs.lookup(mod.name, f.name, f.arity);
            if (e != null) {
                Instr n = new Instr(Ops.CALL_NATIVE);
                n.o = e;
                n.a = f.arity;
                n.line = code[f.entry].line;
                if (bifs.keepsErlangBody(mod.name, f.name, f.arity)) {
                    // The replaced first instruction moves to the end of the code, followed by a jump
                    // back to the second: the original body stays callable (BifTable.keepErlangBody).
                    // Its own FuncInfo (same name, never compiled) keeps stack traces right.
                    int at = code.length + kept.size();
                    kept.add(code[f.entry]);
                    Instr back = new Instr(JUMP);
                    back.a = f.entry + 1;
                    back.line = n.line;
                    kept.add(back);
                    FuncInfo body = new FuncInfo(mod, f.name, f.arity, at);
                    body.entry = at;
                    body.end = at + 2;
                    body.jitState = 2;
                    body.keptBody = true;
                    keptFns.add(body);
                    Export x = new Export(mod.name, f.name, f.arity);
                    x.module = mod;
                    x.pc = at;
                    if (mod.erlangBodies == null) mod.erlangBodies = new java.util.concurrent.ConcurrentHashMap<>();
                    mod.erlangBodies.put(f.name.name + "/" + f.arity, x);
                }
                code[f.entry] = n;
            }
        }
        if (!kept.isEmpty()) {
            code = java.util.Arrays.copyOf(code, code.length + kept.size());
            for (int i = 0; i < kept.size(); i++) code[code.length - kept.size() + i] = kept.get(i);
            mod.code = code;
            FuncInfo[] all = java.util.Arrays.copyOf(mod.functions, mod.functions.length + keptFns.size());
            for (int i = 0; i < keptFns.size(); i++) all[mod.functions.length + i] = keptFns.get(i);
            mod.functions = all;
        }
        FunEntry[] funs = new FunEntry[file.funs.size()];
        for (int i = 0; i < funs.length; i++) {
            BeamFile.FunDef d = file.funs.get(i);
            int pc = labelPc[d.label()];
            if (pc < 0) throw LoadError.badfile("FunT: fun " + i + " refers to undefined label " + d.label());
            funs[i] = new FunEntry(mod, d.function(), d.arity(), d.numFree(), d.index(), d.oldUniq(), pc);
        }
        mod.funs = funs;
        List<BeamModule.ExportDef> ex = new ArrayList<>();
        for (BeamFile.Export e : file.exports) {
            if (labelPc[e.label()] < 0) throw LoadError.badfile("ExpT: export " + e.function().name + "/" + e.arity() + " refers to undefined label");
            ex.add(new BeamModule.ExportDef(e.function(), e.arity(), labelPc[e.label()]));
        }
        mod.exportList = ex;
    }
}
