package org.jbeam.re;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.bindings.pcre2.Pcre2;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Global matching: a Java port of {@code re:grun/3} (OTP 25 re.erl), which the re:run BIF traps to
 * when {@code global} is given: {@code process_parameters/6}, {@code loopexec/8} (empty matches
 * are retried at the same offset with {@code notempty_atstart} and {@code anchored}, otherwise
 * the offset moves on one character, or over CRLF) and {@code postprocess/5}. Each step behaves
 * like {@code re:internal_run/4}, but the subject is copied to native memory once.
 */
final class ReGlobal {
    private ReGlobal() {}

    private static final int SEL_FALSE = 0, SEL_ALL = 1, SEL_STRIPFIRST = 2, SEL_NONE = 3;
    private static final EAtom BADLIST = EAtom.of("badlist");

    /** Result of process_parameters: options left for internal_run, start offset, selection and return type. */
    private record Params(Term tail, Term init, int select, Term ret) {}

    /** {@code re:grun/3}: {@code mp} is a {@code {re_pattern,...}} tuple; {@code needClean} strips compile options. */
    static Term grun(Term subject, ETuple mp, Term options, boolean needClean) {
        boolean unicode = flag(mp.get(2), () -> member(options, ReOptions.UNICODE_A));
        boolean crlf = flag(mp.get(3), () -> crlfOption(options));
        byte[] flat;
        EBitString flatBin;
        if (subject instanceof EBitString b && b.isBinary()) { flatBin = b; flat = b.toByteArray(); }
        else {
            flat = unicode ? ReIo.chardata(subject) : ReIo.iolist(subject);
            if (flat == null) throw ErlangException.badarg();
            flatBin = EBitString.of(flat);
        }
        Params p;
        try {
            p = process(options, ESmall.ZERO, SEL_FALSE, ReOptions.INDEX, needClean, mp);
        } catch (BadList e) {
            throw ErlangException.badarg();
        }
        Loop l = loopexec(flat, flatBin, mp, p, unicode, crlf);
        if (l.error != null) return l.error; // loopexec's throw({error, Err}), caught by do_grun
        return postprocess(l.matches, p.select, p.ret, flat, flatBin, unicode);
    }

    /** loopexec's outcome: the match lists, or the {error, Err} an internal_run returned. */
    private record Loop(List<Term> matches, Term error) {}

    private static boolean flag(Term t, java.util.function.BooleanSupplier otherwise) {
        if (t instanceof ESmall s && s.value == 1) return true;
        if (t instanceof ESmall s && s.value == 0) return false;
        return otherwise.getAsBoolean();
    }

    private static boolean member(Term l, Term x) {
        for (; l instanceof ECons c; l = c.tail) if (c.head.equals(x)) return true;
        return false;
    }

    /** check_for_crlf's lists:keysearch(newline, 1, L). */
    private static boolean crlfOption(Term l) {
        for (; l instanceof ECons c; l = c.tail) {
            if (c.head instanceof ETuple t && t.arity() >= 1 && t.get(0) == ReOptions.NEWLINE) {
                if (t.arity() != 2) return false;
                Term v = t.get(1);
                return v == EAtom.of("any") || v == EAtom.of("crlf") || v == EAtom.of("anycrlf");
            }
        }
        return false;
    }

    private static final class BadList extends RuntimeException {
        BadList() { super(null, null, false, false); }
    }

    private static Params process(Term opts, Term init0, int select0, Term ret0, boolean cc, ETuple re) {
        if (opts == ENil.NIL) return new Params(ENil.NIL, init0, select0, ret0);
        if (!(opts instanceof ECons c)) throw new BadList();
        Term h = c.head, t = c.tail;
        if (h instanceof ETuple tp && tp.arity() == 2 && tp.get(0) == ReOptions.OFFSET)
            return process(t, tp.get(1), select0, ret0, cc, re);
        if (h == ReOptions.GLOBAL_A) return process(t, init0, select0, ret0, cc, re);
        if (h instanceof ETuple tp && tp.arity() == 3 && tp.get(0) == ReOptions.CAPTURE)
            return process(new ECons(ETuple.of(ReOptions.CAPTURE, tp.get(1)), t), init0, select0, tp.get(2), cc, re);
        if (h instanceof ETuple tp && tp.arity() == 2 && tp.get(0) == ReOptions.CAPTURE) {
            Params r = process(t, init0, select0, ret0, cc, re);
            if (r.select != SEL_FALSE) return r;
            Term values = tp.get(1);
            if (values == ReOptions.ALL) return cap(ReOptions.ALL, r, SEL_ALL, ret0);
            if (values == ReOptions.ALL_NAMES) {
                Term names = ReRun.namelist(re);
                if (names == ENil.NIL) return cap(ReOptions.FIRST, r, SEL_NONE, ret0);
                return cap(new ECons(ESmall.ZERO, names), r, SEL_STRIPFIRST, ret0);
            }
            if (values == ReOptions.FIRST) return cap(ReOptions.FIRST, r, SEL_ALL, ret0);
            if (values == ReOptions.ALL_BUT_FIRST) return cap(ReOptions.ALL, r, SEL_STRIPFIRST, ret0);
            if (values == ReOptions.NONE || values == ENil.NIL) return cap(ReOptions.FIRST, r, SEL_NONE, ret0);
            if (values instanceof ECons) return cap(new ECons(ESmall.ZERO, values), r, SEL_STRIPFIRST, ret0);
            throw new BadList();
        }
        Params r = process(t, init0, select0, ret0, cc, re);
        if (cc && ReOptions.copt(h)) return r;
        return new Params(new ECons(h, r.tail), r.init, r.select, r.ret);
    }

    private static Params cap(Term values, Params r, int select, Term ret0) {
        return new Params(new ECons(ETuple.of(ReOptions.CAPTURE, values), r.tail), r.init, select, ret0);
    }

    /** loopexec/8. */
    private static Loop loopexec(byte[] flat, EBitString flatBin, ETuple mp, Params p, boolean unicode, boolean crlf) {
        List<Term> out = new ArrayList<>();
        if (!(p.init instanceof ESmall s0)) throw ErlangException.badarg();
        long x = s0.value;
        int y = flat.length;
        if (x > y) return new Loop(out, null);
        ReRun.Prepared prep = ReRun.prepare(flatBin, mp, p.tail);
        try (ReMatch m = new ReMatch(prep.code(), flat, prep.po())) {
            boolean first = true;
            while (x <= y) {
                int rc = m.match((int) x, prep.po().match | (first ? 0 : Pcre2.NO_UTF_CHECK));
                first = false;
                if (ReMatch.isBadarg(rc)) throw ErlangException.badarg();
                Term r = m.result(rc, prep.capture(), prep.po().has(ReOptions.REPORT_ERRORS), flatBin);
                if (r instanceof ETuple et && et.get(0) == EAtom.ERROR) return new Loop(null, et);
                if (r == ReMatch.NOMATCH) break;
                Term list = ((ETuple) r).get(1);
                ETuple g0 = (ETuple) ((ECons) list).head;
                long a = ((ESmall) g0.get(0)).value, b = ((ESmall) g0.get(1)).value;
                out.add(list);
                if (b > 0) { x = a + b; continue; }
                int rc2 = m.match((int) x, prep.po().match | Pcre2.NOTEMPTY_ATSTART | Pcre2.ANCHORED | Pcre2.NO_UTF_CHECK);
                if (ReMatch.isBadarg(rc2)) throw ErlangException.badarg();
                Term r2 = m.result(rc2, prep.capture(), prep.po().has(ReOptions.REPORT_ERRORS), flatBin);
                Term mm = ENil.NIL;
                if (r2 instanceof ETuple et2 && et2.get(0) == ReMatch.MATCH) mm = et2.get(1);
                else if (r2 != ReMatch.NOMATCH) throw ErlangException.error(ETuple.of(EAtom.CASE_CLAUSE, r2));
                long newA;
                if (mm instanceof ECons mc && mc.head instanceof ETuple t0 && ((ESmall) t0.get(1)).value > 0)
                    newA = a + ((ESmall) t0.get(1)).value;
                else newA = forward(flat, (int) a, unicode, crlf);
                if (mm != ENil.NIL) out.add(mm);
                x = newA;
            }
        }
        return new Loop(out, null);
    }

    /** forward/5: one character on (two bytes over CRLF when the newline convention includes it). */
    private static int forward(byte[] s, int a, boolean unicode, boolean crlf) {
        if (crlf && a + 1 < s.length && s[a] == '\r' && s[a + 1] == '\n') return a + 2;
        if (!unicode || a >= s.length) return a + 1;
        int b = s[a] & 0xFF;
        if ((b & 0xE0) == 0xC0) return a + 2;
        if ((b & 0xF0) == 0xE0) return a + 3;
        if ((b & 0xF8) == 0xF0) return a + 4;
        return a + 1;
    }

    private static Term postprocess(List<Term> m, int select, Term ret, byte[] flat, EBitString flatBin, boolean uni) {
        if (m.isEmpty()) return ReMatch.NOMATCH;
        if (select == SEL_NONE) return ReMatch.MATCH;
        boolean bin = ret == ReOptions.BINARY, list = ret == ReOptions.LIST;
        if (!bin && !list && ret != ReOptions.INDEX) throw ErlangException.error(EAtom.FUNCTION_CLAUSE);
        Term[] rows = new Term[m.size()];
        for (int i = 0; i < rows.length; i++) {
            Term row = m.get(i);
            if (select == SEL_STRIPFIRST) row = row instanceof ECons c ? c.tail : null;
            if (row == null) continue; // [T || [_|T] <- M] skips rows that are not conses
            if (bin || list) {
                Term[] items = ECons.toArray(row);
                for (int k = 0; k < items.length; k++) items[k] = convert((ETuple) items[k], bin, flat, flatBin, uni);
                row = ECons.of(items);
            }
            rows[i] = row;
        }
        List<Term> kept = new ArrayList<>();
        for (Term r : rows) if (r != null) kept.add(r);
        return ETuple.of(ReMatch.MATCH, ECons.of(kept));
    }

    private static Term convert(ETuple idx, boolean bin, byte[] flat, EBitString flatBin, boolean uni) {
        int s = (int) ((ESmall) idx.get(0)).value, l = (int) ((ESmall) idx.get(1)).value;
        if (bin) return s == -1 && l == 0 ? EBitString.EMPTY : flatBin.sub(s, l);
        if (l == 0) return ENil.NIL;
        return uni ? ReIo.utf8ToList(flat, s, l) : ReIo.bytesToList(flat, s, l);
    }
}
