package org.jbeam.bif;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.EBitString;
import org.jbeam.term.Term;
import org.jbeam.term.TermPrinter;

/**
 * process_info(Pid, backtrace): a text dump of the process's stack in erts' layout (program
 * counter, then each frame's y registers and its return address). jbeam has no machine addresses,
 * so where erts prints {@code 0x… (M:F/A + Offset)} this prints {@code (M:F/A)}; tools that show the
 * text (observer, shell debugging) read the same shape. Only a process that is waiting (or the
 * caller itself) has a stable stack to show; a running one shows its current function only.
 */
final class Backtrace {
    private Backtrace() {}

    static Term of(ErlProcess self, ErlProcess q) {
        StringBuilder sb = new StringBuilder();
        BeamModule m = q.module;
        sb.append("Program counter: ").append(where(m, m != null && q.pc >= 0 && q.pc < m.code.length ? m.functionAt(q.pc) : null)).append('\n');
        boolean stable = q == self || q.status() == ErlProcess.WAITING;
        Term[] stk = q.stk;
        int sp = stable && stk != null ? Math.min(q.sp, stk.length) : 0;
        int y = 0;
        for (int i = sp - 1; i >= 0; i--) {
            Term t = stk[i];
            if (t instanceof ReturnAddr ra) {
                sb.append("\nReturn addr ").append(ra.func != null ? where(ra.module, ra.func) : "(<terminate process normally>)").append('\n');
                y = 0;
            } else if (t instanceof org.jbeam.code.CatchTag c) {
                FuncInfo f = c.module != null ? c.module.functionAt(c.pc) : null;
                sb.append("y(").append(y++).append(")     Catch ").append(where(c.module, f)).append('\n');
            } else if (t != null) {
                sb.append("y(").append(y++).append(")     ");
                String s = TermPrinter.print(t);
                sb.append(s.length() > 200 ? s.substring(0, 200) + "..." : s).append('\n');
            }
        }
        sb.append('\n');
        return EBitString.ofUtf8(sb.toString());
    }

    private static String where(BeamModule m, FuncInfo f) {
        return f == null || m == null ? "(unknown)" : "(" + m.name.name + ":" + f.name.name + "/" + f.arity + ")";
    }
}
