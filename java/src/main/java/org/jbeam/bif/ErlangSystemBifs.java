package org.jbeam.bif;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang BIFs about the node and time: halt, display, node identity, time and timers,
 * unique integers, system_info/statistics subsets.
 */
public final class ErlangSystemBifs implements BifModule {
    private static final String E = "erlang";

    @Override
    public void register(BifTable t) {
        t.bif0(E, "halt", p -> halt(p, ESmall.ZERO));
        t.bif1(E, "halt", ErlangSystemBifs::halt);
        t.bif2(E, "halt", (p, s, o) -> { checkHaltOptions(o); return halt(p, s); });
        t.bif1(E, "display", (p, x) -> {
            String s = TermPrinter.display(x) + "\r\n"; // erts writes display output with CRLF
            p.vm.writeStdout(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return EAtom.TRUE;
        });
        t.bif1(E, "display_string", (p, x) -> {
            p.vm.writeStderr(IoLists.charlistToString(x).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return EAtom.TRUE;
        });
        Time.register(t);
        SystemInfo.register(t);
    }

    /** halt/2's options: a proper list of {flush, boolean()} (OTP 25), else badarg with cause badopt. */
    private static void checkHaltOptions(Term opts) {
        Term l = opts;
        for (; l instanceof ECons c; l = c.tail)
            if (!(c.head instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.of("flush")
                    && (t.get(1) == EAtom.TRUE || t.get(1) == EAtom.FALSE))) throw ErlangException.ertsBadarg("badopt");
        if (l != ENil.NIL) throw ErlangException.ertsBadarg("badopt");
    }

    private static Term halt(ErlProcess p, Term status) {
        int code;
        if (status instanceof ESmall s && s.value >= 0) code = (int) s.value;
        else if (status == EAtom.of("abort")) code = 134;
        else if (ECons.length(status) >= 0) {
            p.vm.halting = true; // nothing else gets out while the dump is written (see Runtime.halting)
            // halt(Slogan): print the slogan like erts' crash dump path.
            String slogan = IoLists.charlistToString(status);
            CrashDump.write(p.vm, slogan);
            code = 1;
        } else throw ErlangException.badarg();
        p.vm.halt(code);
        throw new org.jbeam.interp.Halted();
    }

    /** Local and universal time helpers shared with Time. */
    static Term dateTuple(LocalDateTime d) {
        return ETuple.of(ETuple.of(ESmall.of(d.getYear()), ESmall.of(d.getMonthValue()), ESmall.of(d.getDayOfMonth())),
                ETuple.of(ESmall.of(d.getHour()), ESmall.of(d.getMinute()), ESmall.of(d.getSecond())));
    }

    static LocalDateTime now(boolean utc) {
        return ZonedDateTime.now(utc ? ZoneId.of("UTC") : ZoneId.systemDefault()).toLocalDateTime();
    }
}
