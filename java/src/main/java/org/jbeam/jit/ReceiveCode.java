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

/**
 * The receive instructions in compiled functions, and send and catch_end (ADR 0047): each one a
 * call of {@code Receive.run} with the opcode and operands as constants, then a switch on the
 * returned pc with the targets the instruction can have (and LEAVE) as cases, so that a receive
 * continues with a direct jump. Before, each called {@code SlowOps.execute} (35 kB, every rare
 * instruction of the VM), which compiled late, and whose first new branch (a first timeout, a
 * second bound marker) threw all of it away.
 */
final class ReceiveCode {
    private ReceiveCode() {}

    static final ClassDesc CD_RECEIVE = desc("org.jbeam.interp.Receive");

    /** Emits {@code in}; false when it is not a receive instruction. */
    static boolean emit(MethodBody b, int pc, Instr in) {
        CodeBuilder c = b.c;
        int next = pc + 1;
        int[] targets = switch (in.op) {
            case LOOP_REC, WAIT_TIMEOUT -> new int[] {next, in.a};
            case LOOP_REC_END, WAIT -> new int[] {in.a};
            case REMOVE_MESSAGE, TIMEOUT, SEND, CATCH_END, RECV_MARKER_RESERVE, RECV_MARKER_BIND, RECV_MARKER_USE,
                 RECV_MARKER_CLEAR -> new int[] {next};
            default -> null;
        };
        if (targets == null) return false;
        // Receive.run(it, op, a, b, d, next): one shared method, see there why.
        c.aload(MethodBody.IT); c.loadConstant(in.op); c.loadConstant(in.a); c.loadConstant(in.b); c.loadConstant(in.d);
        c.loadConstant(next);
        b.e.call(CD_RECEIVE, "run", CD_int, CD_INTERP, CD_int, CD_int, CD_int, CD_int, CD_int);
        branch(b, targets);
        return true;
    }

    /**
     * The next pc is on the stack: a direct jump to each of {@code targets} in this method, LEAVE
     * leaves, anything else goes through the dispatch switch. A switch, not compares: C2 keeps no
     * per-case profile of a switch, so an outcome a site had not seen is no trap (ADR 0043). No
     * module test: a receive helper never changes the interpreter's module (only calls do).
     */
    private static void branch(MethodBody b, int... targets) {
        CodeBuilder c = b.c;
        c.dup(); c.istore(MethodBody.PC);
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
