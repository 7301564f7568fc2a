package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.loader.Opcodes.*;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.code.*;
import org.jbeam.interp.CompiledFunction;
import org.jbeam.interp.JitSupport;

/**
 * The bytecode tier (ADR 0008): compiles one hot Erlang function to a JVM hidden class whose
 * {@code run} method does what the interpreter would do for each instruction, with the dispatch
 * removed: operands become constants in the bytecode, local jumps become {@code goto}s, and a
 * function calling itself jumps straight back to its entry. It keeps the interpreter's frame
 * layout (x register array, the process's explicit stack, the same return addresses), so compiled
 * and interpreted functions call each other freely and preemption, exceptions and stack traces
 * work unchanged. The hot instructions are generated inline; every other instruction calls the
 * interpreter's own implementation ({@code SlowOps}) so coverage is complete by construction.
 */
public final class JitCompiler implements JitSupport.Compiler {
    /** HotSpot does not compile methods above this size (HugeMethodLimit): keep those interpreted. */
    static final int MAX_BYTECODE = 7800;

    static final ClassDesc CD_TERM = desc("org.jbeam.term.Term"), CD_TERMS = CD_TERM.arrayType(),
            CD_INTERP = desc("org.jbeam.interp.Interpreter"), CD_INSTR = desc("org.jbeam.code.Instr"),
            CD_INSTRS = CD_INSTR.arrayType(), CD_SUPPORT = desc("org.jbeam.interp.JitSupport"),
            CD_CF = desc("org.jbeam.interp.CompiledFunction"), CD_RA = desc("org.jbeam.code.ReturnAddr"),
            CD_MODULE = desc("org.jbeam.code.BeamModule"), CD_EXC = desc("org.jbeam.runtime.ErlangException"),
            CD_ECONS = desc("org.jbeam.term.ECons"), CD_EXPORT = desc("org.jbeam.code.Export"),
            CD_SLOW = desc("org.jbeam.interp.SlowOps"), CD_SMALL = desc("org.jbeam.interp.SmallInts"),
            CD_MAPS = desc("org.jbeam.interp.Maps"), CD_FLOATS = desc("org.jbeam.interp.Floats"),
            CD_SELECT = desc("org.jbeam.code.SelectTable"), CD_INTS = CD_int.arrayType(),
            CD_MATH = desc("java.lang.Math"), CD_ESMALL = desc("org.jbeam.term.ESmall");
    static final MethodTypeDesc RUN = MethodTypeDesc.of(CD_int, CD_INTERP, CD_int);

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final ClassHierarchyResolver RESOLVER =
            ClassHierarchyResolver.ofClassLoading(JitCompiler.class.getClassLoader()).cached();

    /** Installs the compiler into the interpreter (once, at runtime start). */
    public static void install() { if (JitSupport.ENABLED) JitSupport.setCompiler(new JitCompiler()); }

    static ClassDesc desc(String name) { return ClassDesc.of(name); }

    @Override
    public CompiledFunction compile(FuncInfo f, MethodHandles.Lookup lookup) {
        BeamModule m = f.module;
        Instr[] code = m.code.clone(); // originals: installing replaces entries with jit_enter
        for (int pc = f.start; pc < f.end; pc++) if (code[pc].op == Ops.JIT_ENTER || code[pc].op == Ops.CALL_NATIVE) return null;
        int[] entries = entries(f, code);
        ClassDesc self = ClassDesc.of("org.jbeam.interp.Jit$" + safe(m.name.name) + "$" + safe(f.name.name) + "$" + f.arity + "$" + SEQ.incrementAndGet());
        byte[] bytes;
        ClassData data;
        // One run method when it fits under HotSpot's limit; otherwise the function is split into
        // chunks of instructions, one method each, behind a small dispatching run (SplitFunction).
        List<int[]> chunks = new ArrayList<>(List.of(new int[] {f.start, f.end}));
        while (true) {
            data = new ClassData();
            try {
                bytes = build(self, f, code, chunks, data);
            } catch (IllegalArgumentException e) {
                bytes = null; // e.g. past the class-file limits: split further
            }
            int over = bytes == null ? 0 : SplitFunction.firstOversized(bytes, chunks.size(), MAX_BYTECODE);
            if (over < 0) break;
            if (!SplitFunction.split(chunks, bytes == null ? -1 : over)) return null;
        }
        String dump = System.getProperty("jbeam.jit.dump");
        if (dump != null) {
            try {
                java.nio.file.Files.write(java.nio.file.Path.of(dump, self.displayName() + ".class"), bytes);
            } catch (java.io.IOException ignored) {
                // a debugging aid only
            }
        }
        try {
            MethodHandles.Lookup hidden = lookup.defineHiddenClassWithClassData(bytes, data.list(), true);
            return (CompiledFunction) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class, int[].class))
                    .invoke(entries);
        } catch (Throwable t) {
            throw new IllegalStateException("jit: cannot define " + f, t);
        }
    }

    static byte[] build(ClassDesc self, FuncInfo f, Instr[] code, List<int[]> chunks, ClassData data) {
        return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(RESOLVER)).build(self, cb -> {
            cb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SUPER);
            cb.withSuperclass(CD_CF);
            cb.withMethodBody("<init>", MethodTypeDesc.of(CD_void, CD_int.arrayType()), ClassFile.ACC_PUBLIC, c -> {
                c.aload(0); c.aload(1);
                c.invokespecial(CD_CF, INIT_NAME, MethodTypeDesc.of(CD_void, CD_int.arrayType()));
                c.return_();
            });
            if (chunks.size() == 1) {
                FloatPlan plan = plan(f, code);
                cb.withMethodBody("run", RUN, ClassFile.ACC_PUBLIC, c -> new MethodBody(c, f, f.start, f.end, code, data, plan).emit());
                return;
            }
            for (int i = 0; i < chunks.size(); i++) {
                int[] ch = chunks.get(i);
                cb.withMethodBody(SplitFunction.chunkName(i), RUN, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL,
                        c -> new MethodBody(c, f, ch[0], ch[1], code, data, null).emit());
            }
            cb.withMethodBody("run", RUN, ClassFile.ACC_PUBLIC, c -> SplitFunction.dispatcher(c, self, f, chunks, data));
        });
    }

    /** {@code -Djbeam.jit.unbox=false}: every float in an x register is boxed (for measuring). */
    static final boolean UNBOX = !"false".equals(System.getProperty("jbeam.jit.unbox"));

    /** Which floats stay unboxed in a whole-function method (ADR 0029); null: none. */
    static FloatPlan plan(FuncInfo f, Instr[] code) {
        if (!UNBOX) return null;
        try {
            return FloatPlan.of(f, code, entries(f, code));
        } catch (RuntimeException e) {
            if (Boolean.getBoolean("jbeam.debug")) e.printStackTrace();
            return null; // compile without the optimisation rather than not at all
        }
    }

    /** The function entry and the instruction after every call (where callees return). */
    static int[] entries(FuncInfo f, Instr[] code) {
        TreeSet<Integer> s = new TreeSet<>();
        s.add(f.entry);
        for (int pc = f.start; pc < f.end; pc++) {
            ReturnAddr ra = code[pc].ret;
            if (ra != null && ra.module == f.module && ra.pc > f.start && ra.pc < f.end) s.add(ra.pc);
            // Where a process resumes after waiting in a receive or being preempted at a send:
            // without an entry there it would run interpreted until its next call.
            Instr in = code[pc];
            int resume = switch (in.op) {
                case WAIT, WAIT_TIMEOUT, LOOP_REC_END -> in.a;
                case SEND -> pc + 1;
                default -> -1;
            };
            if (resume > f.start && resume < f.end) s.add(resume);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    static String safe(String s) {
        StringBuilder b = new StringBuilder();
        for (char ch : s.toCharArray()) b.append(Character.isLetterOrDigit(ch) && ch < 128 ? ch : '_');
        return b.length() > 40 ? b.substring(0, 40) : b.toString();
    }
}
