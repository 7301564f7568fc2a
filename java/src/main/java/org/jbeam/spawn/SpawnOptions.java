package org.jbeam.spawn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.bif.IoLists;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** The open_port/2 options of a spawn / spawn_executable port, checked as erts checks them (badarg otherwise). */
final class SpawnOptions {
    enum Framing { STREAM, LINE, PACKET }

    Framing framing = Framing.STREAM;
    int size; // line length or packet header bytes
    boolean binary, eof, exitStatus, stderrToStdout, in = true, out = true;
    List<String> args;
    String arg0, cd;
    /** Variables to set (value) or unset (null), in order. */
    final Map<String, String> env = new LinkedHashMap<>();

    private boolean sawIn, sawOut;

    /**
     * open_port's options. A bad or unknown option is a badarg with the cause badopt, as erts
     * gives it; a bad {cd, Dir} alone is a plain badarg.
     */
    static SpawnOptions parse(Term opts) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw badopt();
        SpawnOptions o = new SpawnOptions();
        for (Term t : os) {
            try {
                o.option(t);
            } catch (ErlangException e) {
                if (t instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == EAtom.of("cd")) throw e;
                throw badopt();
            }
        }
        if (o.sawIn && o.sawOut || !o.sawIn && !o.sawOut) { o.in = true; o.out = true; }
        else { o.in = o.sawIn; o.out = o.sawOut; }
        return o;
    }

    private static ErlangException badopt() { return ErlangException.ertsBadarg("badopt"); }

    private void option(Term t) {
        if (t instanceof EAtom a) {
            switch (a.name) {
                case "binary" -> binary = true;
                case "eof" -> eof = true;
                case "exit_status" -> exitStatus = true;
                case "stream" -> framing = Framing.STREAM;
                case "stderr_to_stdout" -> stderrToStdout = true;
                case "in" -> sawIn = true;
                case "out" -> sawOut = true;
                case "use_stdio", "hide", "overlapped_io", "parallelism" -> { }
                // nouse_stdio (fds 3 and 4) cannot be set up through ProcessBuilder (ADR 0020).
                default -> throw ErlangException.badarg();
            }
        } else if (t instanceof ETuple tu && tu.arity() == 2 && tu.get(0) instanceof EAtom k) {
            Term v = tu.get(1);
            switch (k.name) {
                case "line" -> { framing = Framing.LINE; size = positive(v); }
                case "packet" -> {
                    framing = Framing.PACKET;
                    size = v instanceof ESmall s && (s.value == 1 || s.value == 2 || s.value == 4) ? (int) s.value : bad();
                }
                case "args" -> {
                    Term[] as = ECons.toArray(v);
                    if (as == null) throw ErlangException.badarg();
                    args = new ArrayList<>();
                    for (Term a : as) args.add(string(a));
                }
                case "arg0" -> arg0 = string(v);
                case "cd" -> cd = string(v);
                case "env" -> env(this, v);
                case "parallelism" -> { if (v != EAtom.TRUE && v != EAtom.FALSE) bad(); }
                case "busy_limits_port", "busy_limits_msgq" -> {
                    boolean ok = v == EAtom.of("disabled") || v instanceof ETuple l && l.arity() == 2
                            && l.get(0) instanceof ESmall lo && l.get(1) instanceof ESmall hi && lo.value >= 0 && hi.value >= lo.value;
                    if (!ok) bad();
                }
                default -> throw ErlangException.badarg();
            }
        } else throw ErlangException.badarg();
    }

    private static void env(SpawnOptions o, Term v) {
        Term[] es = ECons.toArray(v);
        if (es == null) throw ErlangException.badarg();
        for (Term e : es) {
            if (!(e instanceof ETuple t) || t.arity() != 2) throw ErlangException.badarg();
            String name = string(t.get(0));
            if (name.isEmpty() || name.indexOf('=') >= 0) throw ErlangException.badarg();
            o.env.put(name, t.get(1) == EAtom.FALSE ? null : string(t.get(1)));
        }
    }

    private static int positive(Term v) { return v instanceof ESmall s && s.value > 0 && s.value < (1 << 30) ? (int) s.value : bad(); }

    private static int bad() { throw ErlangException.badarg(); }

    /** A flat character list or a binary, as erts takes names, arguments and variables. */
    static String string(Term t) {
        if (t instanceof EAtom a) return a.name; // erts takes atoms as strings here
        if (t instanceof EBitString b && b.bitSize() % 8 == 0)
            return new String(b.toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
        if (ECons.length(t) < 0) throw ErlangException.badarg();
        String s = IoLists.charlistToString(t);
        if (s == null || s.indexOf('\0') >= 0) throw ErlangException.badarg();
        return s;
    }
}
