package org.jbeam.bif;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * OTP 25 natives found missing by the BIF audit (BifAudit): erlang:insert_element/3,
 * delete_element/2, subtract/2, append/2, adler32_combine/3, crc32_combine/3, display_nl/0,
 * system_monitor/1, system_profile/2, string:list_to_integer/1, list_to_float/1 (string.erl NIFs),
 * error_logger:warning_map/0 and os:env/0. Registers the other audit modules too.
 */
public final class MiscNatives implements BifModule {
    @Override public void register(BifTable t) {
        t.bif3("erlang", "insert_element", (p, i, tu, v) -> {
            if (!(tu instanceof ETuple tup) || !(i instanceof ESmall s) || s.value < 1 || s.value > tup.arity() + 1) throw ErlangException.badarg();
            if (tup.arity() + 1 > ErlangTermBifs.MAX_ARITY) throw ErlangException.badarg();
            Term[] e = tup.elements(), r = new Term[e.length + 1];
            int k = (int) s.value - 1;
            System.arraycopy(e, 0, r, 0, k);
            r[k] = v;
            System.arraycopy(e, k, r, k + 1, e.length - k);
            return new ETuple(r);
        });
        t.bif2("erlang", "delete_element", (p, i, tu) -> {
            if (!(tu instanceof ETuple tup) || !(i instanceof ESmall s) || s.value < 1 || s.value > tup.arity()) throw ErlangException.badarg();
            Term[] e = tup.elements(), r = new Term[e.length - 1];
            int k = (int) s.value - 1;
            System.arraycopy(e, 0, r, 0, k);
            System.arraycopy(e, k + 1, r, k, e.length - k - 1);
            return ETuple.of(r);
        });
        t.bif2("erlang", "subtract", ErlangTermBifs::subtract);
        t.bif2("erlang", "append", ErlangTermBifs::append);
        t.bif3("erlang", "adler32_combine", (p, a, b, n) -> ESmall.of(ChecksumCombine.adler32(u32(a), u32(b), u32(n))));
        t.bif3("erlang", "crc32_combine", (p, a, b, n) -> ESmall.of(ChecksumCombine.crc32(u32(a), u32(b), u32(n))));
        t.bif0("erlang", "display_nl", p -> {
            p.vm.writeStdout("\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return EAtom.TRUE;
        });
        // No system profiling in jbeam: nothing was set before, nothing is set now.
        SystemMonitor.register(t);
        t.bif2("erlang", "system_profile", (p, x, y) -> EAtom.UNDEFINED);

        t.bif1("string", "list_to_integer", (p, l) -> listToInteger(l));
        t.bif1("string", "list_to_float", (p, l) -> listToFloat(l));
        t.bif0("error_logger", "warning_map", p -> EAtom.of("warning"));
        t.bif0("os", "env", p -> {
            List<Term> l = new ArrayList<>();
            for (Term kv : ECons.toArray(Bif.invoke(t.lookup("os", "getenv", 0).fn(), p, new Term[0]))) {
                String s = IoLists.charlistToString(kv);
                int eq = s.indexOf('=', 1);
                if (eq < 0) continue;
                l.add(ETuple.of(IoLists.stringToCharlist(s.substring(0, eq)), IoLists.stringToCharlist(s.substring(eq + 1))));
            }
            return ECons.of(l);
        });

        TermInfoBifs.register(t);
        org.jbeam.dist.DistBifs.register(t);
        DecodePacket.register(t);
        new AtomicsBifs().register(t);
    }

    private static long u32(Term t) {
        if (!(t instanceof ESmall s) || s.value < 0 || s.value > 0xFFFFFFFFL) throw ErlangException.badarg();
        return s.value;
    }

    private static final EAtom ERROR = EAtom.ERROR;

    /** Moves a leading '+' or '-' of a charlist into {@code sb}; returns the rest. */
    private static Term takeSign(Term l, StringBuilder sb) {
        if (l instanceof ECons c && (c.head.equals(ESmall.of('+')) || c.head.equals(ESmall.of('-')))) {
            sb.append((char) ((ESmall) c.head).value);
            return c.tail;
        }
        return l;
    }

    /** string:list_to_integer/1: [+-]digits, returns {Int, Rest}; Rest is whatever follows (even an improper tail). */
    static Term listToInteger(Term l) {
        if (!(l instanceof EList)) return ETuple.of(ERROR, EAtom.of("not_a_list"));
        StringBuilder sb = new StringBuilder();
        Term r = takeSign(l, sb);
        int digits = 0;
        while (r instanceof ECons c && c.head instanceof ESmall d && d.value >= '0' && d.value <= '9') {
            sb.append((char) d.value);
            digits++;
            r = c.tail;
        }
        if (digits == 0) return ETuple.of(ERROR, EAtom.of("no_integer"));
        return ETuple.of(EInteger.of(new BigInteger(sb.toString())), r);
    }

    /** string:list_to_float/1: [+-]digits.digits[(e|E)[+-]digits], returns {Float, Rest}. */
    static Term listToFloat(Term l) {
        if (!(l instanceof EList)) return ETuple.of(ERROR, EAtom.of("not_a_list"));
        StringBuilder sb = new StringBuilder();
        Term r = takeSign(l, sb);
        Term[] cur = {r};
        if (digits(cur, sb) == 0 || !isChar(cur[0], '.')) return noFloat();
        sb.append('.');
        cur[0] = ((ECons) cur[0]).tail;
        if (digits(cur, sb) == 0) return noFloat();
        r = cur[0];
        if (isChar(r, 'e') || isChar(r, 'E')) {
            StringBuilder exp = new StringBuilder("e");
            Term[] e = {((ECons) r).tail};
            if (isChar(e[0], '+') || isChar(e[0], '-')) {
                exp.append((char) ((ESmall) ((ECons) e[0]).head).value);
                e[0] = ((ECons) e[0]).tail;
            }
            if (digits(e, exp) > 0) { sb.append(exp); r = e[0]; }
        }
        double d = Double.parseDouble(sb.toString());
        if (Double.isInfinite(d)) return noFloat();
        return ETuple.of(new EFloat(d), r);
    }

    private static Term noFloat() { return ETuple.of(ERROR, EAtom.of("no_float")); }

    private static boolean isChar(Term t, char ch) { return t instanceof ECons c && c.head instanceof ESmall s && s.value == ch; }

    private static int digits(Term[] cur, StringBuilder sb) {
        int n = 0;
        while (cur[0] instanceof ECons c && c.head instanceof ESmall d && d.value >= '0' && d.value <= '9') {
            sb.append((char) d.value);
            n++;
            cur[0] = c.tail;
        }
        return n;
    }
}
