package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.code.FunEntry;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erlang:fun_info/1,2 and fun_info_mfa/1. */
final class FunInfo {
    private FunInfo() {}

    private static final String[] LOCAL_ITEMS = {"pid", "module", "new_index", "new_uniq", "index", "uniq", "name", "arity", "env", "type"};
    private static final String[] EXTERNAL_ITEMS = {"module", "name", "arity", "env", "type"};

    static Term all(Term f) {
        if (!(f instanceof EFun)) throw ErlangException.badarg();
        List<Term> l = new ArrayList<>();
        for (String i : f instanceof ELocalFun ? LOCAL_ITEMS : EXTERNAL_ITEMS) l.add(item(f, EAtom.of(i)));
        return ECons.of(l);
    }

    static Term mfa(Term f) {
        if (f instanceof EExportFun e) return ETuple.of(e.module, e.function, ESmall.of(e.arity));
        // The fun's own arity, as OTP: the free variables are not arguments (proc_lib's
        // '$initial_call' and crash reports show it).
        if (f instanceof ELocalFun l) return ETuple.of(l.module, l.function, ESmall.of(l.arity));
        throw ErlangException.badarg();
    }

    static Term item(Term f, Term item) {
        if (!(f instanceof EFun) || !(item instanceof EAtom it)) throw ErlangException.badarg();
        Term v;
        if (f instanceof EExportFun e) {
            v = switch (it.name) {
                case "module" -> e.module;
                case "name" -> e.function;
                case "arity" -> ESmall.of(e.arity);
                case "env" -> ENil.NIL;
                case "type" -> EAtom.of("external");
                case "pid", "index", "new_index", "new_uniq", "uniq" -> EAtom.UNDEFINED;
                default -> throw ErlangException.badarg();
            };
        } else {
            ELocalFun l = (ELocalFun) f;
            FunEntry fe = (FunEntry) l.entry;
            v = switch (it.name) {
                case "pid" -> l.pid;
                case "module" -> l.module;
                case "new_index", "index" -> ESmall.of(l.index);
                case "new_uniq" -> EBitString.of(l.md5() == null ? new byte[16] : l.md5().clone());
                case "uniq" -> ESmall.of(l.oldUniq);
                case "name" -> fe != null ? fe.function : l.function;
                case "arity" -> ESmall.of(l.arity);
                case "env" -> ECons.of(l.freeVars);
                case "type" -> EAtom.of("local");
                default -> throw ErlangException.badarg();
            };
        }
        return ETuple.of(it, v);
    }
}
