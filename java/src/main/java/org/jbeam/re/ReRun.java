package org.jbeam.re;

import org.jbeam.bindings.pcre2.Pcre2;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The {@code re} BIF logic: {@code re_compile}, {@code re_run} and {@code re_inspect_2} of OTP's
 * erl_bif_re.c, plus the Erlang fallbacks the C code traps to ({@code re:ucompile/2},
 * {@code re:urun/3}, and {@code re:grun/3} in {@link ReGlobal}) so that every case is answered
 * here without re-entering Erlang. Failures throw {@link ErlangException} (badarg).
 */
public final class ReRun {
    private ReRun() {}

    static final EAtom RE_PATTERN = EAtom.of("re_pattern"), NAMELIST = EAtom.of("namelist"),
            COMPILE = EAtom.of("compile"), BADOPT = EAtom.of("badopt"), ERL_STDLIB_ERRORS = EAtom.of("erl_stdlib_errors"),
            CAUSE = EAtom.of("cause"), MODULE = EAtom.of("module");

    /** badarg with error_info cause badopt, as OTP raises for bad option lists. */
    static ErlangException badopt() {
        ErlangException e = ErlangException.badarg();
        e.errorInfo = ECons.of(ETuple.of(EAtom.ERROR_INFO,
                EMap.of(new Term[] {CAUSE, MODULE}, new Term[] {BADOPT, ERL_STDLIB_ERRORS})));
        return e;
    }

    /** re:version/0: the PCRE library version (PCRE2's here; OTP 25 reports its bundled "8.44 2020-02-12"). */
    public static Term version() { return EBitString.ofLatin1(Pcre2.version()); }

    /** re:compile/2. */
    public static Term compile(Term pattern, Term options) {
        ReOptions po = ReOptions.parse(options);
        if (po == null || po.has(ReOptions.UNIQUE_EXEC_OPT)) throw badopt();
        boolean unicode = po.has(ReOptions.UNICODE);
        byte[] pat = unicode && !(pattern instanceof EBitString) ? ReIo.chardata(pattern) : ReIo.iolist(pattern);
        if (pat == null) throw ErlangException.badarg();
        ReCode.Result r = ReCode.compile(pat, po.compile, po.newline, po.bsr);
        if (r.code() == null) return ETuple.of(EAtom.ERROR, errorTerm(r, pat));
        return ETuple.of(EAtom.OK, mp(r.code(), unicode));
    }

    private static Term errorTerm(ReCode.Result r, byte[] pat) {
        ReErrors.Error e = ReErrors.translate(r.errorCode(), r.errorOffset(), pat);
        return ETuple.of(ReIo.string(e.message()), ESmall.of(e.offset()));
    }

    /** The MP term {@code {re_pattern, NumGroups, Unicode, UseCRLF, Key}}. */
    static ETuple mp(ReCode c, boolean unicode) {
        return ETuple.of(RE_PATTERN, ESmall.of(c.captureCount), ESmall.of(unicode ? 1 : 0),
                ESmall.of(c.useCrlf() ? 1 : 0), EBitString.of(c.key.clone()));
    }

    /** The compiled code of an MP tuple, or null when it is not a valid one. */
    static ReCode code(Term re) {
        if (!(re instanceof ETuple tp) || tp.arity() != 5 || tp.get(0) != RE_PATTERN || !(tp.get(1) instanceof ESmall)
                || !(tp.get(2) instanceof ESmall) || !(tp.get(3) instanceof ESmall)
                || !(tp.get(4) instanceof EBitString b) || !b.isBinary()) return null;
        return ReCode.forKey(b.toByteArray());
    }

    /** re:inspect/2. */
    public static Term inspect(Term mp, Term item) {
        if (code(mp) == null || item != NAMELIST) throw ErlangException.badarg();
        return ETuple.of(NAMELIST, namelist(mp));
    }

    /** The distinct group names of an MP, as binaries in name-table order. */
    static Term namelist(Term mp) {
        ReCode c = code(mp);
        if (c == null) throw ErlangException.badarg();
        java.util.List<Term> out = new java.util.ArrayList<>();
        boolean dup = c.hasDupnames();
        byte[] last = null;
        for (ReCode.Name n : c.names) {
            if (last == null || !dup || !java.util.Arrays.equals(last, n.name())) out.add(EBitString.of(n.name().clone()));
            last = n.name();
        }
        return ECons.of(out);
    }

    /** re:run/3 ({@code first} = true) and re:internal_run/4. */
    public static Term run(Term subject, Term re, Term options, boolean first) {
        ReOptions po = ReOptions.parse(options);
        if (po == null) throw badopt();
        if (!first) po.match |= Pcre2.NO_UTF_CHECK;
        boolean listCap = po.has(ReOptions.CAPTURE_OPT) && po.captureType == ReOptions.LIST;
        boolean global = po.has(ReOptions.GLOBAL);
        ReCode code;
        if (!(re instanceof ETuple tre && tre.arity() == 5)) {
            if (!(re instanceof EBitString) && !(re instanceof EList)) throw ErlangException.badarg();
            if (po.has(ReOptions.UNICODE) && (!(re instanceof EBitString) || !(subject instanceof EBitString) || (listCap && !global)))
                return urun(subject, re, options);
            byte[] pat = ReIo.iolist(re);
            if (pat == null) throw ErlangException.badarg();
            ReCode.Result r = ReCode.compile(pat, po.compile, po.newline, po.bsr);
            if (r.code() == null) {
                if (po.has(ReOptions.REPORT_ERRORS)) return ETuple.of(EAtom.ERROR, ETuple.of(COMPILE, errorTerm(r, pat)));
                throw ErlangException.badarg();
            }
            if (global)
                return ReGlobal.grun(subject, mp(r.code(), po.has(ReOptions.UNICODE)), options, po.has(ReOptions.UNIQUE_COMPILE_OPT));
            code = r.code();
        } else {
            if (po.has(ReOptions.UNIQUE_COMPILE_OPT)) throw ErlangException.badarg();
            code = code(tre);
            if (code == null) throw ErlangException.badarg();
            if (((ESmall) tre.get(2)).value != 0 && (!(subject instanceof EBitString) || (listCap && !global)))
                return urun(subject, re, options);
            if (global) return ReGlobal.grun(subject, tre, options, false);
            code = code.withNewlineBsr(po.newline, po.bsr);
        }
        ReMatch.Capture cap = null;
        if (po.has(ReOptions.CAPTURE_OPT)) {
            cap = ReMatch.capture(po.captureValues, po.captureType, code);
            if (cap == null) throw ErlangException.badarg();
        }
        EBitString orig = subject instanceof EBitString b && b.isBinary() ? b : null;
        byte[] bytes = orig != null ? orig.toByteArray() : ReIo.iolist(subject);
        if (bytes == null) throw ErlangException.badarg();
        try (ReMatch m = new ReMatch(code, bytes, po)) {
            int rc = m.match(po.startOffset, po.match);
            if (ReMatch.isBadarg(rc)) throw ErlangException.badarg();
            return m.result(rc, cap, po.has(ReOptions.REPORT_ERRORS), orig);
        }
    }

    /** What re:internal_run/4 checks and builds before matching, for an MP and a binary subject (used by grun). */
    record Prepared(ReCode code, ReOptions po, ReMatch.Capture capture) {}

    static Prepared prepare(EBitString subject, ETuple mp, Term options) {
        ReOptions po = ReOptions.parse(options);
        if (po == null) throw badopt();
        if (po.has(ReOptions.UNIQUE_COMPILE_OPT)) throw ErlangException.badarg();
        ReCode code = code(mp);
        if (code == null) throw ErlangException.badarg();
        code = code.withNewlineBsr(po.newline, po.bsr);
        ReMatch.Capture cap = null;
        if (po.has(ReOptions.CAPTURE_OPT)) {
            cap = ReMatch.capture(po.captureValues, po.captureType, code);
            if (cap == null) throw ErlangException.badarg();
        }
        return new Prepared(code, po, cap);
    }

    /** re:urun/3: unicode data given as lists (or list captures): convert to UTF-8 binaries, run, convert back. */
    static Term urun(Term subject0, Term re0, Term options0) {
        Term options = options0, retType = EAtom.FALSE;
        Term[] pu = processUparams(options0);
        if (pu != null) { options = pu[0]; retType = pu[1]; }
        byte[] subj = ReIo.chardata(subject0);
        if (subj == null) throw ErlangException.badarg();
        Term re;
        if (re0 instanceof EBitString || (re0 instanceof ETuple t && t.arity() == 5 && t.get(0) == RE_PATTERN)) re = re0;
        else {
            byte[] pat = ReIo.chardata(re0);
            if (pat == null) throw ErlangException.badarg();
            re = EBitString.of(pat);
        }
        EBitString subject = subject0 instanceof EBitString b ? b : EBitString.of(subj);
        Term ret = run(subject, re, options, true);
        if (!(ret instanceof ETuple rt && rt.arity() == 2 && rt.get(0) == ReMatch.MATCH)) return ret;
        boolean bin = retType == ReOptions.BINARY;
        if (!bin && retType != ReOptions.LIST) return ret;
        byte[] flat = subject.toByteArray();
        Term[] items = ECons.toArray(rt.get(1));
        for (int i = 0; i < items.length; i++) {
            ETuple idx = (ETuple) items[i];
            int s = (int) ((ESmall) idx.get(0)).value, l = (int) ((ESmall) idx.get(1)).value;
            if (bin) items[i] = s == -1 && l == 0 ? EBitString.EMPTY : subject.sub(s, l);
            else items[i] = l == 0 ? ENil.NIL : ReIo.utf8ToList(flat, s, l);
        }
        return ETuple.of(ReMatch.MATCH, ECons.of(items));
    }

    /** process_uparams/2: null when the options say global; else {Options without capture types, RetType}. */
    private static Term[] processUparams(Term opts) {
        java.util.List<Term> out = new java.util.ArrayList<>();
        Term type = ReOptions.INDEX;
        Term l = opts;
        for (; l instanceof ECons c; l = c.tail) {
            Term h = c.head;
            if (h == ReOptions.GLOBAL_A) return null;
            if (h instanceof ETuple t && t.arity() == 3 && t.get(0) == ReOptions.CAPTURE) {
                type = t.get(2);
                h = ETuple.of(ReOptions.CAPTURE, t.get(1));
            }
            out.add(h);
        }
        if (l != ENil.NIL) return null;
        return new Term[] {ECons.of(out), type};
    }
}
