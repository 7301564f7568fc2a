package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.etf.EtfBifs;
import org.jbeam.etf.TermDecoder;
import org.jbeam.etf.TermEncoder;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.Term;

/**
 * Upcalls for enif_term_to_binary / enif_binary_to_term (the runtime's external term format, so
 * the bytes equal erlang:term_to_binary's) and enif_whereis_pid. Terms cross in the flat
 * encoding (ADR 0006); result buffers are malloc'd here and freed by C. Also erlang:phash2 for
 * enif_hash(ERL_NIF_PHASH2). Never throw into C.
 */
final class NifTerms {
    private NifTerms() {}

    static int toEtf(MemorySegment flat, long len, MemorySegment etfOut, MemorySegment lenOut) {
        try {
            byte[] b = TermEncoder.encode(NifCodec.decodeAt(flat.address(), len));
            hand(b, b.length, etfOut, lenOut);
            return 0;
        } catch (Throwable t) { return 1; }
    }

    static int fromEtf(MemorySegment etf, long len, int safe, MemorySegment flatOut, MemorySegment flatLenOut, MemorySegment usedOut) {
        try {
            byte[] b = etf.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
            TermDecoder.Result r = TermDecoder.decode(b, 0, b.length, safe != 0, EtfBifs.funResolver);
            NifCodec c = new NifCodec();
            try { c.encode(r.term()); } catch (Throwable t) { c.free(); throw t; }
            long n = c.pos;
            flatOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, c.detach());   // malloc'd: C frees it
            flatLenOut.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, n);
            usedOut.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, r.used());
            return 0;
        } catch (Throwable t) { return 1; }
    }

    private static void hand(byte[] b, int n, MemorySegment out, MemorySegment lenOut) throws Throwable {
        MemorySegment m = ((MemorySegment) JbeamNif.MALLOC.invokeExact((long) n)).reinterpret(Math.max(1, n));
        MemorySegment.copy(b, 0, m, ValueLayout.JAVA_BYTE, 0, n);
        out.reinterpret(8).set(ValueLayout.ADDRESS, 0, m);
        lenOut.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, n);
    }

    /** enif_hash(ERL_NIF_PHASH2, T, _): erlang:phash2(T). */
    static long phash2(MemorySegment flat, long len) {
        try { return org.jbeam.etf.Phash2.phash2(NifCodec.decodeAt(flat.address(), len)); } catch (Throwable t) { return 0; }
    }

    /** 1 (a process) or 2 (a port) and {@code *idOut} = the registered name's opaque id, or 0. */
    static int whereis(int atomIx, MemorySegment idOut) {
        try {
            EAtom name = NifAtoms.atom(atomIx);
            Term t = NifUpcalls.host.whereis(name);
            int kind = t instanceof EPid ? 1 : t instanceof org.jbeam.term.EPort ? 2 : 0;
            if (kind != 0) idOut.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, NifOpaque.id(t));
            return kind;
        } catch (Throwable t) { return 0; }
    }

    /** enif_port_command: 1 when the port took the message. */
    static int portCommand(long portId, long callerId, MemorySegment flat, long len) {
        try {
            Term port = NifOpaque.term(portId);
            Term caller = callerId == 0 ? null : NifOpaque.term(callerId);
            return port instanceof org.jbeam.term.EPort p
                    && NifUpcalls.host.portCommand(p, caller instanceof EPid c ? c : null, NifCodec.decodeAt(flat.address(), len)) ? 1 : 0;
        } catch (Throwable t) { return 0; }
    }

    /** enif_is_port_alive and enif_is_process_alive (the opaque id of a port or a pid). */
    static int portAlive(long portId) {
        try {
            Term t = NifOpaque.term(portId);
            if (t instanceof EPid pid) return NifUpcalls.host.processAlive(pid) ? 1 : 0;
            return t instanceof org.jbeam.term.EPort p && NifUpcalls.host.portAlive(p) ? 1 : 0;
        } catch (Throwable t) { return 0; }
    }
}
