package org.jbeam.interp;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.code.Instr;
import org.jbeam.term.Term;

/**
 * The receive instructions (ADR 0047): loop_rec, loop_rec_end, wait, wait_timeout, timeout,
 * remove_message and the receive markers, plus send and catch_end (with apply, which compiled
 * code now calls directly, the other instructions of a gen_server:call that went through
 * SlowOps). Before, all of them ran in {@code SlowOps.execute} (35 kB, every rare instruction of
 * the VM): a gen_server:call ran 15 instructions through it, so the call/receive path waited for
 * C2 to compile that whole method, and a branch there that a program took for the first time
 * threw all of it away. Here: one small helper per instruction behind one shared entry,
 * {@link #run}, which both the interpreter loop ({@link #execute}) and compiled code call (see
 * run for why one entry).
 *
 * <p>Helpers that decide where to go return the next pc ({@link Interpreter#LEAVE} to leave),
 * which compiled code tests with a switch (no per-case profile, so no trap on a first outcome,
 * ADR 0043).
 */
final class Receive {
    private Receive() {}

    private static int leave(Interpreter it, int outcome) {
        it.leaveOutcome = outcome;
        return Interpreter.LEAVE;
    }

    /** loop_rec: the current message into {@code dst} and on to {@code next}; none: {@code empty}. */
    static int loopRec(Interpreter it, int dst, int empty, int next) {
        Term m = Messaging.peek(it);
        if (m == null) return noMessage(it, empty);
        it.put(dst, m);
        return next;
    }

    /** No message to examine: wait at {@code empty}, or leave if the process was killed meanwhile. */
    private static int noMessage(Interpreter it, int empty) {
        return it.p.exitReason != null ? leave(it, it.exit(it.p.exitReason)) : empty;
    }

    /** loop_rec_end: step past the message, back to loop_rec (leaving when the slice ran out). */
    static int loopRecEnd(Interpreter it, int loop) {
        it.p.mailbox.advance();
        if (--it.reds <= 0) return leave(it, it.suspend(loop, 0, Interpreter.YIELDED));
        return loop;
    }

    /** wait: suspend until a message arrives, resuming at {@code loop}. */
    static int waitForever(Interpreter it, int loop) {
        return leave(it, it.suspend(loop, 0, Interpreter.WAITING));
    }

    /**
     * wait_timeout: suspend (LEAVE), back to {@code loop} (new messages), or on to {@code next}
     * (the timeout instruction) when timed out. A switch, not compares: a compare that had never
     * seen a timeout was a trap at a program's first receive timeout (JFR "unstable_if", ADR 0043).
     */
    static int waitTimeout(Interpreter it, int loop, int operand, int next) {
        return switch (Messaging.waitTimeout(it, operand)) {
            case Messaging.WAIT -> leave(it, it.suspend(loop, 0, Interpreter.WAITING));
            case Messaging.RETRY -> loop;
            case Messaging.EXITING -> leave(it, it.exit(it.p.exitReason));
            default -> next;
        };
    }

    /** send (x0 ! x1, the result in x0), leaving when the slice ran out; else on to {@code next}. */
    static int send(Interpreter it, int next) {
        Term[] x = it.x;
        boolean busy = Messaging.send(it, x[0], x[1]);
        x[0] = x[1];
        // A busy distribution connection suspended the sender (erts' ERTS_DSIG_SEND_YIELD): it
        // leaves now and Interpreter.run parks it until the connection's queue drains.
        if (--it.reds <= 0 || busy) return leave(it, it.suspend(next, 1, Interpreter.YIELDED));
        return next;
    }

    /** catch_end: the catch's y register freed, an exception in x0..x3 turned into catch's value. */
    static void catchEnd(Interpreter it, int y) {
        it.put(y, org.jbeam.term.ENil.NIL);
        it.p.catches--;
        Exceptions.catchEnd(it);
    }

    static void reserveMarker(Interpreter it, int dst) { it.put(dst, Messaging.reserveMarker(it)); }

    static void bindMarker(Interpreter it, int marker, int ref) { Messaging.bindMarker(it, it.get(marker), it.get(ref)); }

    static void useMarker(Interpreter it, int ref) { Messaging.useMarker(it, it.get(ref)); }

    static void clearMarker(Interpreter it, int ref) { Messaging.clearMarker(it, it.get(ref)); }

    /**
     * Every instruction of this class, for the interpreter loop and for compiled code alike
     * ({@code next} is the next instruction's pc; a, b, d are the instruction's operand fields).
     * One shared entry, on purpose: it runs some 15 times per gen_server:call, so it is among the
     * first methods C2 compiles (with the helpers inlined into it), while compiled Erlang
     * functions still run as C1 code for seconds behind C2's queue. Called per instruction,
     * each small helper had to get hot on its own and ran as C1 code meanwhile: ~1.5x the
     * scheduler CPU of a gen_server:call over runs 3-14 (bench/curve). When C2 compiles a
     * compiled Erlang function that calls this with a constant op, the switch folds away.
     */
    static int run(Interpreter it, int op, int a, int b, int d, int next) {
        switch (op) {
            case LOOP_REC -> { return loopRec(it, d, a, next); }
            case LOOP_REC_END -> { return loopRecEnd(it, a); }
            case REMOVE_MESSAGE -> Messaging.removeMessage(it);
            case TIMEOUT -> Messaging.timeout(it);
            case WAIT -> { return waitForever(it, a); }
            case WAIT_TIMEOUT -> { return waitTimeout(it, a, b, next); }
            case SEND -> { return send(it, next); }
            case CATCH_END -> catchEnd(it, d);
            case RECV_MARKER_RESERVE -> reserveMarker(it, d);
            case RECV_MARKER_BIND -> bindMarker(it, a, b);
            case RECV_MARKER_USE -> useMarker(it, a);
            case RECV_MARKER_CLEAR -> clearMarker(it, a);
            default -> throw new IllegalStateException("not a receive instruction: " + op);
        }
        return next;
    }

    /** The interpreter loop's case for these instructions ({@code pc} is already the next one's). */
    static int execute(Interpreter it, Instr in, int pc) { return run(it, in.op, in.a, in.b, in.d, pc); }
}
