package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.code.BeamModule;
import org.jbeam.loader.LoadError;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Code loading BIFs as OTP's code server uses them: prepare_loading/2 (returns a magic
 * reference to prepared code, or {error, Reason}), finish_loading/1, delete_module/1,
 * purge_module/1, module_loaded/1, function_exported/3, get_module_info/1,2 (module_info).
 */
public final class CodeBifs implements BifModule {
    private static final String E = "erlang";
    private static final ConcurrentHashMap<ERef, BeamModule> PREPARED = new ConcurrentHashMap<>();

    @Override
    public void register(BifTable t) {
        t.bif2(E, "prepare_loading", CodeBifs::prepareLoading);
        t.bif1(E, "finish_loading", CodeBifs::finishLoading);
        t.bif2(E, "load_module", (p, mod, code) -> {
            Term prepared = prepareLoading(p, mod, code);
            if (prepared instanceof ETuple) return prepared; // {error, Reason}
            Term r = finishLoading(p, ECons.of(prepared));
            if (r == EAtom.OK) return ETuple.of(EAtom.of("module"), mod);
            return ETuple.of(EAtom.ERROR, ((ETuple) r).get(0));
        });
        t.bif1(E, "has_prepared_code_on_load", (p, r) -> {
            BeamModule m = r instanceof ERef ref ? PREPARED.get(ref) : null;
            if (m == null) throw ErlangException.badarg();
            return EAtom.of(m.onLoadPc >= 0);
        });
        // As erts: old code must be purged first (badarg); a module once loaded keeps its entry,
        // so deleting it again is true; an unknown module is undefined.
        t.bif1(E, "delete_module", (p, m) -> {
            if (!(m instanceof EAtom a)) throw ErlangException.badarg();
            if (p.vm.code.old(a) != null) {
                org.jbeam.runtime.CrashReport.error(p, "Module " + TermPrinter.display(a) + " must be purged before deleting\n");
                throw ErlangException.badarg();
            }
            return p.vm.code.delete(a) || p.vm.code.known(a) ? EAtom.TRUE : EAtom.UNDEFINED;
        });
        // erlang:purge_module/1 stays erlang.erl's: it asks erts_code_purger, which kills the
        // processes still running the old code (erts_internal:purge_module/2 below does the work).
        t.bif1(E, "check_old_code", (p, m) -> {
            if (!(m instanceof EAtom a)) throw ErlangException.badarg();
            return EAtom.of(p.vm.code.old(a) != null);
        });
        t.bif2(E, "check_process_code", OldCode::check);
        t.bif3(E, "check_process_code", (p, pid, m, o) -> {
            Term[] os = ECons.toArray(o);
            if (os == null) throw ErlangException.ertsBadarg("bad_option");
            for (Term x : os)
                if (!(x instanceof ETuple t2 && t2.arity() == 2 && t2.get(0) == EAtom.of("allow_gc") && (t2.get(1) == EAtom.TRUE || t2.get(1) == EAtom.FALSE)))
                    throw ErlangException.ertsBadarg("bad_option");
            return OldCode.check(p, pid, m);
        });
        t.guard1(E, "module_loaded", (p, m) -> {
            if (!(m instanceof EAtom a)) throw ErlangException.badarg();
            return EAtom.of(p.vm.code.isLoaded(a));
        });
        t.bif3(E, "function_exported", (p, m, f, a) -> {
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || !(a instanceof ESmall ar)) throw ErlangException.badarg();
            var e = p.vm.exports.find(ma, fa, (int) ar.value);
            return EAtom.of(e != null && (e.module != null || (e.bif != null && p.vm.code.isLoaded(ma))));
        });
        t.bif0(E, "pre_loaded", p -> ECons.of(new ArrayList<Term>(p.vm.code.preloaded())));
        t.bif0(E, "loaded", p -> ECons.of(new ArrayList<Term>(p.vm.code.loaded())));
        t.bif1(E, "get_module_info", (p, m) -> moduleInfo(p, m));
        t.bif2(E, "get_module_info", CodeBifs::moduleInfoItem);
        t.bif2(E, "load_nif", LoadNif::loadNif);
        t.bif1(E, "call_on_load_function", (p, m) -> {
            BeamModule mod = m instanceof EAtom a ? p.vm.code.pendingOnLoad(a) : null;
            if (mod == null) throw ErlangException.badarg();
            org.jbeam.code.Export target = new org.jbeam.code.Export(mod.name, EAtom.of("$on_load"), 0);
            target.module = mod;
            target.pc = mod.onLoadPc;
            return org.jbeam.interp.Trap.call(target, new Term[0]);
        });
        t.bif2(E, "finish_after_on_load", (p, m, keep) -> {
            if (!(m instanceof EAtom a) || !(keep instanceof EAtom k) || (k != EAtom.TRUE && k != EAtom.FALSE)) throw ErlangException.badarg();
            if (!p.vm.code.finishOnLoad(a, k == EAtom.TRUE)) throw ErlangException.badarg();
            return EAtom.TRUE;
        });
        t.bif2("erts_internal", "purge_module", OldCode::purgeModule);
    }

    private static Term prepareLoading(ErlProcess p, Term mod, Term code) {
        if (!(mod instanceof EAtom name) || !(code instanceof EBitString bin) || !bin.isBinaryAligned()) throw ErlangException.badarg();
        try {
            BeamModule m = p.vm.code.prepare(name, bin.toByteArray());
            ERef ref = p.vm.makeRef();
            PREPARED.put(ref, m);
            return ref;
        } catch (LoadError e) {
            if (Boolean.getBoolean("jbeam.debug")) p.vm.warn("prepare_loading " + name.name + ": " + e.getMessage());
            return ETuple.of(EAtom.ERROR, EAtom.of(e.reason));
        }
    }

    private static Term finishLoading(ErlProcess p, Term list) {
        Term[] refs = ECons.toArray(list);
        if (refs == null) throw ErlangException.badarg();
        List<BeamModule> ms = new ArrayList<>();
        for (Term r : refs) {
            BeamModule m = r instanceof ERef ref ? PREPARED.get(ref) : null;
            if (m == null) throw ErlangException.badarg();
            ms.add(m);
        }
        for (BeamModule m : ms) {
            if (m.onLoadPc >= 0) {
                // OTP: {on_load, [Mod]}; the code server then runs call_on_load_function/1.
                for (Term r : refs) PREPARED.remove((ERef) r);
                p.vm.code.addPendingOnLoad(m);
                return ETuple.of(EAtom.of("on_load"), ECons.of(m.name));
            }
        }
        List<Term> notPurged = new ArrayList<>();
        for (BeamModule m : ms) if (p.vm.code.old(m.name) != null && p.vm.code.isLoaded(m.name)) notPurged.add(m.name);
        if (!notPurged.isEmpty()) return ETuple.of(EAtom.of("not_purged"), ECons.of(notPurged));
        for (Term r : refs) PREPARED.remove((ERef) r);
        for (BeamModule m : ms) p.vm.code.install(m);
        return EAtom.OK;
    }

    private static final String[] INFO_ITEMS = {"module", "exports", "attributes", "compile", "md5"};

    private static Term moduleInfo(ErlProcess p, Term m) {
        List<Term> l = new ArrayList<>();
        for (String i : INFO_ITEMS) l.add(ETuple.of(EAtom.of(i), moduleInfoItem(p, m, EAtom.of(i))));
        return ECons.of(l);
    }

    private static Term moduleInfoItem(ErlProcess p, Term m, Term item) {
        if (!(m instanceof EAtom name) || !(item instanceof EAtom it)) throw ErlangException.badarg();
        BeamModule mod = p.vm.code.current(name);
        if (mod == null) throw ErlangException.badarg();
        return switch (it.name) {
            case "module" -> name;
            case "exports" -> {
                List<Term> l = new ArrayList<>();
                for (BeamModule.ExportDef d : mod.exportList) l.add(ETuple.of(d.name(), ESmall.of(d.arity())));
                yield ECons.of(l);
            }
            case "functions" -> {
                List<Term> l = new ArrayList<>();
                for (var f : mod.functions) if (!f.keptBody) l.add(ETuple.of(f.name, ESmall.of(f.arity)));
                yield ECons.of(l);
            }
            case "attributes" -> mod.attributes;
            case "compile" -> mod.compileInfo;
            case "md5" -> EBitString.of(mod.md5() == null ? new byte[16] : mod.md5().clone());
            case "nifs" -> ENil.NIL;
            case "native" -> EAtom.FALSE;
            default -> throw ErlangException.badarg();
        };
    }
}
