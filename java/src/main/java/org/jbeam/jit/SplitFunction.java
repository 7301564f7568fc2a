package org.jbeam.jit;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.constant.ClassDesc;
import java.util.List;

import org.jbeam.code.FuncInfo;

/**
 * Functions too big for one JVM method (HotSpot does not compile methods over 8,000 bytes, and
 * interpreted JVM bytecode is slower than our interpreter). Large Erlang functions are common in
 * exactly the code servers run often: prim_inet's option encoders and decoders, generated parsers.
 * The function's instructions are cut into contiguous chunks, each compiled as its own method with
 * the usual dispatch switch over its own pcs. A jump to a pc outside the chunk returns that pc (as
 * a jump out of the function always did); the class's {@code run} loops, handing any pc that is
 * still inside the function (and module) to the chunk that holds it, and returns everything else
 * to the interpreter. ADR 0008.
 */
final class SplitFunction {
    private SplitFunction() {}

    /** More chunks than this and the function stays interpreted (compile time grows with it). */
    static final int MAX_CHUNKS = 64;

    /** {@code -Djbeam.jit.split=false}: big functions stay interpreted (for measuring). */
    static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit.split"));

    static String chunkName(int i) { return "run" + i; }

    /**
     * The index of the first method over {@code max} bytes of bytecode ({@code run} itself when
     * there is one chunk), or -1 when all fit.
     */
    static int firstOversized(byte[] bytes, int chunks, int max) {
        var methods = ClassFile.of().parse(bytes).methods();
        for (int i = 0; i < chunks; i++) {
            String name = chunks == 1 ? "run" : chunkName(i);
            for (var mm : methods) {
                if (!mm.methodName().equalsString(name)) continue;
                int length = mm.code().map(cm -> ((CodeAttribute) cm).codeLength()).orElse(0);
                if (length > max) return i;
            }
        }
        return -1;
    }

    /**
     * Splits further: chunk {@code over} in half, or every chunk when the build failed outright
     * ({@code over} < 0). The first split of a whole function cuts it into eighths at once, which
     * for the big functions seen in practice leaves few chunks to halve again. Returns false when
     * no useful split is left.
     */
    static boolean split(List<int[]> chunks, int over) {
        if (!ENABLED) return false;
        if (chunks.size() == 1) {
            int[] all = chunks.getFirst();
            int n = all[1] - all[0];
            if (n < 2) return false;
            int parts = Math.min(8, n);
            chunks.clear();
            for (int i = 0; i < parts; i++) chunks.add(new int[] {all[0] + n * i / parts, all[0] + n * (i + 1) / parts});
            return true;
        }
        if (over >= 0) return halve(chunks, over);
        boolean any = false;
        for (int i = chunks.size() - 1; i >= 0; i--) any |= halve(chunks, i);
        return any;
    }

    private static boolean halve(List<int[]> chunks, int i) {
        int[] ch = chunks.get(i);
        if (ch[1] - ch[0] < 2 || chunks.size() >= MAX_CHUNKS) return false;
        int mid = (ch[0] + ch[1]) >>> 1;
        chunks.set(i, new int[] {ch[0], mid});
        chunks.add(i + 1, new int[] {mid, ch[1]});
        return true;
    }

    /**
     * {@code run(it, pc)} of a split function: call the chunk holding pc; while the result is a pc
     * of this function in this module, go round again; otherwise return it (LEAVE included: it is
     * never a valid pc).
     */
    static void dispatcher(CodeBuilder c, ClassDesc self, FuncInfo f, List<int[]> chunks, ClassData data) {
        final int it = 1, pc = 2;
        Label loop = c.newLabel(), got = c.newLabel(), out = c.newLabel();
        c.labelBinding(loop);
        for (int i = 0; i < chunks.size(); i++) {
            Label next = c.newLabel();
            if (i < chunks.size() - 1) { c.iload(pc); c.loadConstant(chunks.get(i)[1]); c.if_icmpge(next); }
            c.aload(0); c.aload(it); c.iload(pc);
            c.invokevirtual(self, chunkName(i), JitCompiler.RUN);
            c.goto_(got);
            c.labelBinding(next);
        }
        c.labelBinding(got);
        c.istore(pc);
        c.iload(pc); c.loadConstant(f.start); c.if_icmplt(out);
        c.iload(pc); c.loadConstant(f.end); c.if_icmpge(out);
        c.aload(it); c.getfield(JitCompiler.CD_INTERP, "mod", JitCompiler.CD_MODULE);
        data.load(c, f.module, JitCompiler.CD_MODULE);
        c.if_acmpne(out);
        c.goto_(loop);
        c.labelBinding(out);
        c.iload(pc); c.ireturn();
    }

}
