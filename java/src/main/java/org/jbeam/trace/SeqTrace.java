package org.jbeam.trace;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Sequential tracing (erts' seq_trace, ADR 0070): a process's trace token
 * {@code {Flags, Label, Serial, From, LastCnt}} travels with every message it sends to a local
 * process; the receiver takes it over when a receive removes that message (a message without
 * one clears the receiver's token). Sends, receives and seq_trace:print/1,2 produce
 * {@code {seq_trace, Label, Info[, Timestamp]}} messages to the system's sequential tracer when
 * the token's flags ask for them. Serials follow erts: each process keeps a clock and the serial
 * it last received; a send or print takes {@code {LastCnt, ++Clock}}, a receive sets the clock to
 * at least the message's serial.
 *
 * <p>Across the distribution the token travels in the *_TT control messages. Not done: tokens
 * to ports (dropped), a tracer module as sequential tracer (badarg), and the
 * spawn_request/spawn_reply events erts emits when a process with a token spawns (the child
 * inherits the token without them).
 */
public final class SeqTrace implements BifModule {
    static final int SEND = 1, RECEIVE = 2, PRINT = 4, NOW_TS = 8, STRICT_MON_TS = 16, MON_TS = 32;

    private static final EAtom SEQ_TRACE = EAtom.of("seq_trace"), LABEL = EAtom.of("label"), SERIAL = EAtom.of("serial"),
            TOKEN = EAtom.of("sequential_trace_token"), SEND_A = EAtom.of("send"), RECEIVE_A = EAtom.of("receive"),
            PRINT_A = EAtom.of("print"), TIMESTAMP = EAtom.of("timestamp"), MON_A = EAtom.of("monotonic_timestamp"),
            STRICT_A = EAtom.of("strict_monotonic_timestamp");

    @Override public void register(BifTable t) {
        t.bif2("erlang", "seq_trace", SeqTrace::set);
        t.bif1("erlang", "seq_trace_info", SeqTrace::info);
        t.bif1("erlang", "seq_trace_print", (p, msg) -> print(p, null, msg));
        t.bif2("erlang", "seq_trace_print", (p, label, msg) -> print(p, label, msg));
    }

    // ---- the token ----

    private static int flags(ETuple t) { return (int) ((ESmall) t.get(0)).value; }
    private static Term label(ETuple t) { return t.get(1); }
    private static long serial(ETuple t) { return ((ESmall) t.get(2)).value; }
    private static long lastCnt(ETuple t) { return ((ESmall) t.get(4)).value; }

    private static ETuple token(int flags, Term label, long serial, EPid from, long lastCnt) {
        return ETuple.of(ESmall.of(flags), label, ESmall.of(serial), from, ESmall.of(lastCnt));
    }

    /** A token to change: the process's own, or a fresh one (flags 0, label 0) at its clock. */
    private static ETuple current(ErlProcess p) {
        ETuple t = p.seqToken;
        return t != null ? t : token(0, ESmall.ZERO, p.seqClock, p.pid, p.seqLastCnt);
    }

    /** The process's next serial, as a send or print takes it: {@code {LastCnt, ++Clock}}. */
    private static ETuple advance(ErlProcess p) {
        ETuple t = p.seqToken;
        ETuple n = token(flags(t), label(t), ++p.seqClock, p.pid, p.seqLastCnt);
        p.seqToken = n;
        return n;
    }

    // ---- hooks ----

    /**
     * {@code from}, which holds a token, sends {@code msg} to {@code to} (a local process's pid, or
     * the destination on another node as given): the token the message carries (the send event
     * traced if asked for).
     */
    public static ETuple sent(ErlProcess from, Term to, Term msg) {
        ETuple t = advance(from);
        if ((flags(t) & SEND) != 0) emit(from, t, ETuple.of(SEND_A, serials(t), from.pid, to, msg));
        return t;
    }

    /** {@code p}'s receive removes {@code msg}, which carried {@code t} (null: none). */
    public static void received(ErlProcess p, ETuple t, Term msg) {
        p.seqToken = t;
        if (t == null) return;
        long s = serial(t);
        if (s > p.seqClock) p.seqClock = s;
        p.seqLastCnt = s;
        if ((flags(t) & RECEIVE) != 0) emit(p, t, ETuple.of(RECEIVE_A, serials(t), t.get(3), p.pid, msg));
    }

    /** A process with a token spawns {@code child}: the child starts with the token. */
    public static void spawned(ErlProcess parent, ErlProcess child) {
        ETuple t = advance(parent);
        child.seqToken = t;
        child.seqClock = serial(t);
        child.seqLastCnt = serial(t);
    }

    private static ETuple serials(ETuple t) { return ETuple.of(ESmall.of(lastCnt(t)), ESmall.of(serial(t))); }

    /** An event of {@code p}'s to the sequential tracer, if there is one (a process or a port). */
    private static void emit(ErlProcess p, ETuple t, ETuple info) {
        Runtime vm = p.vm;
        Term tracer = vm.seqTracer;
        if (tracer == null) return;
        int f = flags(t);
        int ts = f & (NOW_TS | STRICT_MON_TS | MON_TS);
        ts &= -ts; // the least significant one, as erts
        Term msg = ts == 0 ? ETuple.of(SEQ_TRACE, label(t), info) : ETuple.of(SEQ_TRACE, label(t), info, timestamp(vm, ts));
        if (tracer instanceof EPid pid) vm.sendTo(pid, msg);
        else if (!PortTracer.output(p, (EPort) tracer, msg)) tracerGone(vm, tracer);
    }

    /** The tracer, or null once it has exited or closed (erts then answers false, and forgets it). */
    private static Term liveTracer(Runtime vm) {
        Term t = vm.seqTracer;
        boolean alive = t instanceof EPid pid ? vm.resolve(pid) instanceof ErlProcess q && q.isAlive()
                : t instanceof EPort port && vm.ports.get(port) != null;
        if (t != null && !alive) { tracerGone(vm, t); return null; }
        return t;
    }

    private static void tracerGone(Runtime vm, Term tracer) {
        synchronized (vm) { if (vm.seqTracer == tracer) vm.seqTracer = null; }
    }

    private static Term timestamp(Runtime vm, int ts) {
        if (ts == NOW_TS) {
            long us = System.currentTimeMillis() * 1000;
            return ETuple.of(ESmall.of(us / 1_000_000_000_000L), ESmall.of(us / 1_000_000 % 1_000_000), ESmall.of(us % 1_000_000));
        }
        long mono = org.jbeam.bif.Time.monotonicNative(vm); // nanoseconds, as erts' seq trace timestamps
        return ts == MON_TS ? ESmall.of(mono) : ETuple.of(ESmall.of(mono), ESmall.of(vm.uniqueInteger()));
    }

    // ---- the BIFs ----

    /** erlang:seq_trace(Key, Value): sets one part of the token; the previous value. */
    private static Term set(ErlProcess p, Term key, Term value) {
        if (key == TOKEN) {
            if (value != ENil.NIL) throw ErlangException.badarg();
            Term old = p.seqToken == null ? ENil.NIL : p.seqToken;
            p.seqToken = null;
            return old;
        }
        ETuple t = current(p);
        if (key == LABEL) {
            p.seqToken = token(flags(t), value, serial(t), p.pid, lastCnt(t));
            return label(t);
        }
        if (key == SERIAL) {
            if (!(value instanceof ETuple v && v.arity() == 2 && v.get(0) instanceof ESmall last && v.get(1) instanceof ESmall ser))
                throw ErlangException.badarg();
            p.seqToken = token(flags(t), label(t), ser.value, p.pid, last.value);
            p.seqClock = ser.value;
            p.seqLastCnt = last.value;
            return serials(t);
        }
        int bit = flagBit(key);
        if (bit == 0 || value != EAtom.TRUE && value != EAtom.FALSE) throw ErlangException.badarg();
        int f = flags(t);
        p.seqToken = token(value == EAtom.TRUE ? f | bit : f & ~bit, label(t), serial(t), p.pid, lastCnt(t));
        return EAtom.of((f & bit) != 0);
    }

    private static int flagBit(Term key) {
        if (key == SEND_A) return SEND;
        if (key == RECEIVE_A) return RECEIVE;
        if (key == PRINT_A) return PRINT;
        if (key == TIMESTAMP) return NOW_TS;
        if (key == MON_A) return MON_TS;
        if (key == STRICT_A) return STRICT_MON_TS;
        return 0;
    }

    /** erlang:seq_trace_info(Key): {Key, Value}; [] for label and serial without a token. */
    private static Term info(ErlProcess p, Term key) {
        ETuple t = p.seqToken;
        if (key == TOKEN) return ETuple.of(TOKEN, t == null ? ENil.NIL : t);
        if (key == LABEL) return t == null ? ENil.NIL : ETuple.of(LABEL, label(t));
        if (key == SERIAL) return t == null ? ENil.NIL : ETuple.of(SERIAL, serials(t));
        int bit = flagBit(key);
        if (bit == 0) throw ErlangException.badarg();
        return ETuple.of(key, EAtom.of(t != null && (flags(t) & bit) != 0));
    }

    /** erlang:seq_trace_print/1,2: a print event when the token asks (and its label is Label). */
    private static Term print(ErlProcess p, Term label, Term msg) {
        ETuple t = p.seqToken;
        if (t == null || label != null && !label.equals(label(t))) return EAtom.FALSE;
        t = advance(p);
        if ((flags(t) & PRINT) != 0) emit(p, t, ETuple.of(PRINT_A, serials(t), p.pid, ENil.NIL, msg));
        return EAtom.TRUE;
    }

    /**
     * erlang:system_flag(sequential_tracer, Tracer): a live local process, a local open port or
     * false; the previous one (false if it has gone).
     */
    public static Term setTracer(ErlProcess p, Term tracer) {
        if (!(tracer == EAtom.FALSE || tracer instanceof EPid pid && p.vm.resolve(pid) instanceof ErlProcess q && q.isAlive()
                || tracer instanceof EPort port && port.node == p.vm.nodeName && p.vm.ports.get(port) != null))
            throw ErlangException.badarg();
        Term old = liveTracer(p.vm);
        p.vm.seqTracer = tracer == EAtom.FALSE ? null : tracer;
        return old == null ? EAtom.FALSE : old;
    }

    /** erlang:system_info(sequential_tracer). */
    public static Term tracerInfo(Runtime vm) {
        Term t = liveTracer(vm);
        return ETuple.of(EAtom.of("sequential_tracer"), t == null ? EAtom.FALSE : t);
    }

    /** erlang:system_flag(reset_seq_trace, true): every process's token and clocks cleared. */
    public static Term reset(ErlProcess p) {
        for (ErlProcess q : p.vm.processes.all()) {
            q.seqToken = null;
            q.seqClock = 0;
            q.seqLastCnt = 0;
        }
        return EAtom.TRUE;
    }
}
