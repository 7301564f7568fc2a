package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** os module natives: getenv/0,1, putenv/2, unsetenv/1, getpid/0. */
public final class OsBifs implements BifModule {
    /** The node's environment: starts as the JVM's, changed by os:putenv/unsetenv. */
    private static final Map<String, String> ENV = new ConcurrentHashMap<>(System.getenv());

    /** The node's environment as os:putenv left it: what spawned programs inherit. */
    public static Map<String, String> environment() { return ENV; }

    /** Sets a variable in the node's environment (erl's -env flag). */
    public static void putenv(String name, String value) { ENV.put(name, value); }

    @Override
    public void register(BifTable t) {
        t.bif0("os", "getenv", p -> {
            List<Term> l = new ArrayList<>();
            for (var e : ENV.entrySet()) l.add(IoLists.stringToCharlist(e.getKey() + "=" + e.getValue()));
            return ECons.of(l);
        });
        t.bif1("os", "getenv", (p, n) -> {
            String v = ENV.get(varName(n));
            return v == null ? EAtom.FALSE : IoLists.stringToCharlist(v);
        });
        t.bif2("os", "putenv", (p, n, v) -> { ENV.put(varName(n), name(v)); return EAtom.TRUE; });
        t.bif1("os", "unsetenv", (p, n) -> { ENV.remove(varName(n)); return EAtom.TRUE; });
        // Signal handling options (sighup, sigterm… → handle|default|ignore): accepted; jbeam leaves
        // JVM signal handling in place (SIGTERM still ends the node).
        t.bif2("os", "set_signal", (p, sig, how) -> {
            if (!(sig instanceof EAtom s) || !SIGNALS.contains(s.name)) throw ErlangException.badarg();
            if (!(how instanceof EAtom h) || !(h.name.equals("handle") || h.name.equals("default") || h.name.equals("ignore")))
                throw ErlangException.badarg("badopt", EAtom.of("erl_kernel_errors"));
            return EAtom.OK;
        });
        t.bif0("os", "getpid", p -> IoLists.stringToCharlist(Long.toString(ProcessHandle.current().pid())));
    }

    /** The signals erts lets os:set_signal/2 change. */
    private static final java.util.Set<String> SIGNALS = java.util.Set.of("sighup", "sigquit", "sigabrt", "sigalrm", "sigterm",
            "sigusr1", "sigusr2", "sigchld", "sigstop", "sigtstp");

    /** A flat character list without NUL (C strings underneath, as in erts); badarg otherwise. */
    private static String name(Term t) {
        if (ECons.length(t) < 0) throw ErlangException.badarg();
        String s = IoLists.charlistToString(t);
        if (s == null || s.indexOf('\0') >= 0) throw ErlangException.badarg();
        return s;
    }

    /** A variable name: also without '=' (which would end it). */
    private static String varName(Term t) {
        String s = name(t);
        if (s.indexOf('=') >= 0) throw ErlangException.badarg();
        return s;
    }
}
