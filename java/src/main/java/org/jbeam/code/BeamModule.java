package org.jbeam.code;

import java.util.Arrays;
import java.util.List;

import org.jbeam.loader.LineTable;
import org.jbeam.term.EAtom;
import org.jbeam.term.Term;

/**
 * One loaded version of a module: its instructions, constants, functions, funs and line table.
 * Immutable once published in the {@link ModuleTable}; a reload makes a new BeamModule and the old
 * one lives on while processes still run its code.
 */
public final class BeamModule implements org.jbeam.term.ELocalFun.Md5Source {
    public final EAtom name;
    public Instr[] code;
    public Term[] consts;
    public FuncInfo[] functions;   // sorted by start
    public FunEntry[] funs;
    public LineTable lines;
    /** Exported functions (name/arity), for module_info(exports). */
    public List<ExportDef> exportList;

    /** An exported function and its entry point. */
    public record ExportDef(EAtom name, int arity, int pc) {}
    public Term attributes = org.jbeam.term.ENil.NIL, compileInfo = org.jbeam.term.ENil.NIL;
    private volatile byte[] md5;
    /** What {@link #md5()} hashes until it has (the loader's chunks), then null. */
    private volatile java.util.function.Supplier<byte[]> md5Source;

    /**
     * The module's MD5 as erts computes it (beam_lib:md5/1): module_info(md5) and every fun's
     * new_uniq. Computed on first use: hashing every module as it loads was a tenth of boot, and
     * most boot modules never need it. A race computes it twice, with the same result.
     */
    public byte[] md5() {
        byte[] m = md5;
        if (m == null) {
            java.util.function.Supplier<byte[]> src = md5Source;
            if (src == null) return md5; // none, or another thread has just computed it (md5 is set before md5Source is cleared)
            md5 = m = src.get();
            md5Source = null;
        }
        return m;
    }
    public void md5(byte[] value) { md5 = value; md5Source = null; }
    public void md5(java.util.function.Supplier<byte[]> source) { md5Source = source; }
    /** pc of the on_load function entry, or -1. */
    public int onLoadPc = -1;
    public String sourceFile;
    /**
     * Natives that cover only common cases (BifTable.keepErlangBody): "name/arity" to an export that
     * runs the function's original Erlang body (and natives' cached exports of local functions, "local name/arity"). Null when the module has none.
     */
    public java.util.Map<String, Export> erlangBodies;

    public BeamModule(EAtom name) { this.name = name; }

    /** The function whose code contains {@code pc}, or null. */
    public FuncInfo functionAt(int pc) {
        FuncInfo[] fs = functions;
        int lo = 0, hi = fs.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (fs[mid].start > pc) hi = mid - 1;
            else if (fs[mid].end <= pc) lo = mid + 1;
            else return fs[mid];
        }
        return null;
    }

    public FuncInfo function(EAtom f, int arity) {
        for (FuncInfo fi : functions) if (fi.name == f && fi.arity == arity) return fi;
        return null;
    }

    /** File name for a location index as OTP reports it in stack traces. */
    public String fileOf(int loc) {
        String f = lines.file(loc);
        return f != null ? f : name.name + ".erl";
    }

    @Override public String toString() { return "BeamModule(" + name.name + ", " + code.length + " instrs, " + Arrays.stream(functions).count() + " functions)"; }
}
