package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;
import static org.jbeam.loader.Opcodes.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.code.Instr;
import org.jbeam.jit.JitCompiler.Body;

/**
 * The receive instructions in compiled functions, and send and catch_end (ADR 0047): each one a
 * call of its small
 * {@code Receive} helper with the operands as constants, then a switch on the returned pc with
 * the targets the instruction can have (and LEAVE) as cases, so that a receive continues with a
 * direct jump. Before, each called {@code SlowOps.execute} (35 kB, every rare instruction of the
 * VM), which C2 could not inline and compiled late, and whose first new branch (a first
 * timeout, a second bound marker) threw all of it away.
 */
final class ReceiveCode {
    private ReceiveCode() {}

    static final ClassDesc CD_RECEIVE = desc("org.jbeam.interp.Receive"), CD_MESSAGING = desc("org.jbeam.interp.Messaging");

    /** Emits {@code in}; false when it is not a receive instruction. */
    static boolean emit(Body b, int pc, Instr in) {
        CodeBuilder c = b.c;
        Emit e = b.e;
        int next = pc + 1;
        switch (in.op) {
            case LOOP_REC -> {
                c.aload(Body.IT); c.loadConstant(in.d); c.loadConstant(in.a); c.loadConstant(next);
                e.call(CD_RECEIVE, "loopRec", CD_int, CD_INTERP, CD_int, CD_int, CD_int);
                branch(b, next, in.a);
            }
            case LOOP_REC_END -> {
                c.aload(Body.IT); c.loadConstant(in.a);
                e.call(CD_RECEIVE, "loopRecEnd", CD_int, CD_INTERP, CD_int);
                branch(b, in.a);
            }
            case WAIT -> {
                c.aload(Body.IT); c.loadConstant(in.a);
                e.call(CD_RECEIVE, "waitForever", CD_int, CD_INTERP, CD_int);
                branch(b);
            }
            case WAIT_TIMEOUT -> {
                c.aload(Body.IT); c.loadConstant(in.a); c.loadConstant(in.b); c.loadConstant(next);
                e.call(CD_RECEIVE, "waitTimeout", CD_int, CD_INTERP, CD_int, CD_int, CD_int);
                branch(b, next, in.a);
            }
            case SEND -> {
                c.aload(Body.IT); c.loadConstant(next);
                e.call(CD_RECEIVE, "send", CD_int, CD_INTERP, CD_int);
                branch(b, next);
            }
            case CATCH_END -> marker(b, next, "catchEnd", in.d);
            case REMOVE_MESSAGE -> { c.aload(Body.IT); e.call(CD_MESSAGING, "removeMessage", CD_void, CD_INTERP); b.jump(next); }
            case TIMEOUT -> { c.aload(Body.IT); e.call(CD_MESSAGING, "timeout", CD_void, CD_INTERP); b.jump(next); }
            case RECV_MARKER_RESERVE -> marker(b, next, "reserveMarker", in.d);
            case RECV_MARKER_BIND -> marker(b, next, "bindMarker", in.a, in.b);
            case RECV_MARKER_USE -> marker(b, next, "useMarker", in.a);
            case RECV_MARKER_CLEAR -> marker(b, next, "clearMarker", in.a);
            default -> { return false; }
        }
        return true;
    }

    /** {@code Receive.name(it, operands...)} (a void helper), then on to the next instruction. */
    private static void marker(Body b, int next, String name, int... operands) {
        b.c.aload(Body.IT);
        ClassDesc[] params = new ClassDesc[1 + operands.length];
        params[0] = CD_INTERP;
        for (int i = 0; i < operands.length; i++) { b.c.loadConstant(operands[i]); params[1 + i] = CD_int; }
        b.e.call(CD_RECEIVE, name, CD_void, params);
        b.jump(next);
    }

    /**
     * The next pc is on the stack: a direct jump to each of {@code targets} in this method, LEAVE
     * leaves, anything else goes through the dispatch switch. A switch, not compares: C2 keeps no
     * per-case profile of a switch, so an outcome a site had not seen is no trap (ADR 0043). No
     * module test: a receive helper never changes the interpreter's module (only calls do).
     */
    private static void branch(Body b, int... targets) {
        CodeBuilder c = b.c;
        c.dup(); c.istore(Body.PC);
        List<SwitchCase> cases = new ArrayList<>();
        cases.add(SwitchCase.of(Integer.MIN_VALUE, b.leave));
        for (int t : targets) {
            if (!b.inside(t) || cases.stream().anyMatch(k -> k.caseValue() == t)) continue;
            Label l = b.at(t);
            cases.add(SwitchCase.of(t, l));
        }
        cases.sort((x, y) -> Integer.compare(x.caseValue(), y.caseValue()));
        c.lookupswitch(b.dispatch, cases);
    }
}
