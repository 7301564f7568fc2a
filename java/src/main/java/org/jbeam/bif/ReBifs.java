package org.jbeam.bif;

import org.jbeam.re.ReRun;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.EAtom;
import org.jbeam.term.ENil;

/**
 * The natively implemented functions of OTP 25's {@code re} module (erl_bif_re.c): version/0,
 * compile/1,2, run/2,3, internal_run/4 and inspect/2, on the system PCRE2 through FFM
 * ({@link org.jbeam.re}). re:replace/3,4 and re:split/2,3 are Erlang code in re.erl over these.
 */
public final class ReBifs implements BifModule {
    @Override public void register(BifTable t) {
        t.bif0("re", "version", p -> ReRun.version());
        t.bif1("re", "compile", (p, a) -> ReRun.compile(a, ENil.NIL));
        t.bif2("re", "compile", (p, a, b) -> ReRun.compile(a, b));
        t.bif2("re", "run", (p, a, b) -> ReRun.run(a, b, ENil.NIL, true));
        t.bif3("re", "run", (p, a, b, c) -> ReRun.run(a, b, c, true));
        t.bifN("re", "internal_run", 4, (p, args) -> {
            boolean first;
            if (args[3] == EAtom.TRUE) first = true;
            else if (args[3] == EAtom.FALSE) first = false;
            else throw ErlangException.badarg();
            return ReRun.run(args[0], args[1], args[2], first);
        });
        t.bif2("re", "inspect", (p, a, b) -> ReRun.inspect(a, b));
    }
}
