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

    static SpawnOptions parse(Term opts) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        SpawnOptions o = new SpawnOptions();
        boolean sawIn = false, sawOut = false;
        for (Term t : os) {
            if (t instanceof EAtom a) {
                switch (a.name) {
                    case "binary" -> o.binary = true;
                    case "eof" -> o.eof = true;
                    case "exit_status" -> o.exitStatus = true;
                    case "stream" -> o.framing = Framing.STREAM;
                    case "stderr_to_stdout" -> o.stderrToStdout = true;
                    case "in" -> sawIn = true;
                    case "out" -> sawOut = true;
                    case "use_stdio", "hide", "overlapped_io", "parallelism" -> { }
                    // nouse_stdio (fds 3 and 4) cannot be set up through ProcessBuilder (ADR 0020).
                    default -> throw ErlangException.badarg();
                }
            } else if (t instanceof ETuple tu && tu.arity() == 2 && tu.get(0) instanceof EAtom k) {
                Term v = tu.get(1);
                switch (k.name) {
                    case "line" -> { o.framing = Framing.LINE; o.size = positive(v); }
                    case "packet" -> {
                        o.framing = Framing.PACKET;
                        o.size = v instanceof ESmall s && (s.value == 1 || s.value == 2 || s.value == 4) ? (int) s.value : bad();
                    }
                    case "args" -> {
                        Term[] as = ECons.toArray(v);
                        if (as == null) throw ErlangException.badarg();
                        o.args = new ArrayList<>();
                        for (Term a : as) o.args.add(string(a));
                    }
                    case "arg0" -> o.arg0 = string(v);
                    case "cd" -> o.cd = string(v);
                    case "env" -> env(o, v);
                    case "parallelism", "busy_limits_port", "busy_limits_msgq" -> { }
                    default -> throw ErlangException.badarg();
                }
            } else throw ErlangException.badarg();
        }
        if (sawIn && sawOut || !sawIn && !sawOut) { o.in = true; o.out = true; }
        else { o.in = sawIn; o.out = sawOut; }
        return o;
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
