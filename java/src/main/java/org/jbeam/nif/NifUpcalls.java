package org.jbeam.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few calls native code makes into Java (ADR 0006): whether an atom exists (for
 * enif_make_existing_atom of a name the native table has not seen), enif_send, enif_make_ref,
 * process monitors ({@link NifMonitors}), the external term format and whereis ({@link NifTerms}).
 * Installed once; they never let an exception escape into native code.
 */
final class NifUpcalls {
    private NifUpcalls() {}

    static volatile NifHost host = NifHost.NONE;

    static void install() {}

    static {
        try {
            var lookup = MethodHandles.lookup();
            var linker = JbeamNif.linker();
            MemorySegment atomExists = linker.upcallStub(
                    lookup.findStatic(NifUpcalls.class, "atomExists", MethodType.methodType(int.class, MemorySegment.class, long.class)),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), Arena.global());
            MemorySegment send = linker.upcallStub(
                    lookup.findStatic(NifUpcalls.class, "send", MethodType.methodType(int.class, long.class, MemorySegment.class, long.class)),
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG), Arena.global());
            MemorySegment makeRef = linker.upcallStub(
                    lookup.findStatic(NifUpcalls.class, "makeRef", MethodType.methodType(long.class)),
                    FunctionDescriptor.of(JAVA_LONG), Arena.global());
            JbeamNif.SET_CALLBACKS.invokeExact(atomExists, send, makeRef);
            MemorySegment monitor = linker.upcallStub(
                    lookup.findStatic(NifMonitors.class, "monitor", MethodType.methodType(int.class, MemorySegment.class, long.class, MemorySegment.class)),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS), Arena.global());
            MemorySegment demonitor = linker.upcallStub(
                    lookup.findStatic(NifMonitors.class, "demonitor", MethodType.methodType(int.class, long.class)),
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG), Arena.global());
            MemorySegment demonitorAll = linker.upcallStub(
                    lookup.findStatic(NifMonitors.class, "demonitorAll", MethodType.methodType(void.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
            JbeamNif.SET_MONITOR_CALLBACKS.invokeExact(monitor, demonitor, demonitorAll);
            MemorySegment toEtf = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "toEtf", MethodType.methodType(int.class, MemorySegment.class, long.class, MemorySegment.class, MemorySegment.class)),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS), Arena.global());
            MemorySegment fromEtf = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "fromEtf", MethodType.methodType(int.class, MemorySegment.class, long.class, int.class,
                            MemorySegment.class, MemorySegment.class, MemorySegment.class)),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Arena.global());
            MemorySegment whereis = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "whereis", MethodType.methodType(int.class, int.class, MemorySegment.class)),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), Arena.global());
            MemorySegment phash2 = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "phash2", MethodType.methodType(long.class, MemorySegment.class, long.class)),
                    FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG), Arena.global());
            JbeamNif.SET_TERM_CALLBACKS.invokeExact(toEtf, fromEtf, whereis, phash2);
            MemorySegment portCommand = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "portCommand", MethodType.methodType(int.class, long.class, long.class, MemorySegment.class, long.class)),
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), Arena.global());
            MemorySegment portAlive = linker.upcallStub(
                    lookup.findStatic(NifTerms.class, "portAlive", MethodType.methodType(int.class, long.class)),
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG), Arena.global());
            JbeamNif.SET_PORT_CALLBACKS.invokeExact(portCommand, portAlive);
        } catch (Throwable t) { throw new ExceptionInInitializerError(t); }
    }

    private static int atomExists(MemorySegment utf8, long len) {
        try {
            String name = new String(utf8.reinterpret(len).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            return EAtom.existing(name) != null ? 1 : 0;
        } catch (Throwable t) { return 0; }
    }

    private static int send(long pidId, MemorySegment msg, long len) {
        try {
            Term to = NifOpaque.term(pidId);
            Term m = NifCodec.decodeAt(msg.address(), len);
            return to instanceof EPid p && host.send(p, m) ? 1 : 0;
        } catch (Throwable t) { return 0; }
    }

    private static long makeRef() {
        try { return NifOpaque.id(host.makeRef()); } catch (Throwable t) { return 0; }
    }
}
