package org.jbeam.ets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** Table creation options (ets:new/2), ets:info/1,2 and ets:setopts/2. */
public final class EtsInfo {
    private EtsInfo() {}

    private static EAtom a(String s) { return EAtom.of(s); }

    /** ets:new/2. */
    public static Term newTable(ErlProcess p, Term name, Term opts) {
        if (!(name instanceof EAtom nm)) throw ErlangException.badarg();
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        EtsTable.Type type = EtsTable.Type.SET;
        EAtom prot = EtsTable.PROTECTED;
        int keypos = 1;
        boolean named = false, rc = false, compressed = false;
        Boolean dc = null;
        Term wc = EAtom.FALSE;
        EPid heir = null;
        Term heirData = EAtom.NONE;
        for (Term o : os) {
            if (o instanceof EAtom x) {
                switch (x.name) {
                    case "set", "protected" -> { } // the defaults: never override an earlier option (as OTP)
                    case "ordered_set" -> type = EtsTable.Type.ORDERED_SET;
                    case "bag" -> type = EtsTable.Type.BAG;
                    case "duplicate_bag" -> type = EtsTable.Type.DUPLICATE_BAG;
                    case "public", "private" -> prot = x;
                    case "named_table" -> named = true;
                    case "compressed" -> compressed = true;
                    default -> throw ErlangException.badarg();
                }
            } else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) instanceof EAtom k) {
                Term v = t.get(1);
                switch (k.name) {
                    case "keypos" -> {
                        if (!(v instanceof ESmall s) || s.value < 1 || s.value > Integer.MAX_VALUE) throw ErlangException.badarg();
                        keypos = (int) s.value;
                    }
                    case "read_concurrency" -> rc = bool(v);
                    case "write_concurrency" -> {
                        if (v != EAtom.TRUE && v != EAtom.FALSE && v != a("auto")) throw ErlangException.badarg();
                        wc = v;
                    }
                    case "decentralized_counters" -> dc = bool(v);
                    case "heir" -> {
                        if (v != EAtom.NONE) throw ErlangException.badarg();
                        heir = null;
                        heirData = EAtom.NONE;
                    }
                    default -> throw ErlangException.badarg();
                }
            } else if (o instanceof ETuple t && t.arity() == 3 && t.get(0) == a("heir") && t.get(1) instanceof EPid hp) {
                heir = hp;
                heirData = t.get(2);
            } else {
                throw ErlangException.badarg();
            }
        }
        if (dc == null) dc = type == EtsTable.Type.ORDERED_SET && wc != EAtom.FALSE;
        EtsTables ts = EtsTables.of(p.vm);
        EtsTable t = new EtsTable(type, keypos, p.vm.makeRef(), nm, named, p.pid, rc, wc, compressed, dc);
        t.protection = prot;
        t.heir = heir;
        t.heirData = heirData;
        if (!ts.add(t)) throw org.jbeam.bif.EtsBifs.badarg("already_exists");
        return t.tid();
    }

    private static boolean bool(Term v) {
        if (v == EAtom.TRUE) return true;
        if (v == EAtom.FALSE) return false;
        throw ErlangException.badarg();
    }

    private static final String[] INFO_ITEMS = {"id", "decentralized_counters", "read_concurrency", "write_concurrency",
            "compressed", "memory", "owner", "heir", "name", "size", "node", "named_table", "type", "keypos", "protection"};

    /** ets:info/1. */
    public static Term info(ErlProcess p, Term id) {
        if (!(id instanceof EAtom || id instanceof ERef)) throw org.jbeam.bif.EtsBifs.badarg("type");
        EtsTable t = EtsTables.of(p.vm).resolve(id);
        if (t == null) return EAtom.UNDEFINED;
        List<Term> l = new ArrayList<>();
        for (String k : INFO_ITEMS) l.add(ETuple.of(a(k), item(p, t, k)));
        return ECons.of(l);
    }

    /** ets:info/2. */
    public static Term info(ErlProcess p, Term id, Term item) {
        if (!(id instanceof EAtom || id instanceof ERef)) throw org.jbeam.bif.EtsBifs.badarg("type");
        if (!(item instanceof EAtom k)) throw ErlangException.badarg();
        EtsTable t = EtsTables.of(p.vm).resolve(id);
        if (t == null) return EAtom.UNDEFINED;
        Term v = item(p, t, k.name);
        if (v == null) throw ErlangException.badarg();
        return v;
    }

    private static Term item(ErlProcess p, EtsTable t, String k) {
        return switch (k) {
            case "id" -> t.ref;
            case "decentralized_counters" -> EAtom.of(t.decentralizedCounters);
            case "read_concurrency" -> EAtom.of(t.readConcurrency);
            case "write_concurrency" -> t.writeConcurrency;
            case "compressed" -> EAtom.of(t.compressed);
            case "memory" -> ESmall.of(t.memoryWords());
            case "owner" -> t.owner;
            case "heir" -> t.heir == null ? EAtom.NONE : t.heir;
            case "name" -> t.name;
            case "size" -> ESmall.of(t.size());
            case "node" -> p.vm.nodeName;
            case "named_table" -> EAtom.of(t.named);
            case "type" -> t.type.atom();
            case "keypos" -> ESmall.of(t.keypos);
            case "protection" -> t.protection;
            case "fixed" -> { synchronized (t.fixes) { yield EAtom.of(!t.fixes.isEmpty()); } }
            case "safe_fixed", "safe_fixed_monotonic_time" -> safeFixed(p, t, k.equals("safe_fixed"));
            case "stats" -> t.type == EtsTable.Type.ORDERED_SET ? EAtom.FALSE
                    : ETuple.of(ESmall.of(256), new EFloat(0.0), new EFloat(0.0), new EFloat(0.0), ESmall.ZERO, ESmall.ZERO, ESmall.ZERO, ESmall.ONE);
            case "binary" -> ENil.NIL;
            default -> null;
        };
    }

    private static Term safeFixed(ErlProcess p, EtsTable t, boolean wallClock) {
        synchronized (t.fixes) {
            if (t.fixes.isEmpty()) return EAtom.FALSE;
            List<Term> l = new ArrayList<>();
            for (Map.Entry<EPid, Integer> e : t.fixes.entrySet()) l.add(ETuple.of(e.getKey(), ESmall.of(e.getValue())));
            Term when;
            if (wallClock) {
                long us = t.fixedAtMillis * 1000;
                when = ETuple.of(ESmall.of(us / 1_000_000_000_000L), ESmall.of(us / 1_000_000 % 1_000_000), ESmall.of(us % 1_000_000));
            } else {
                when = ESmall.of(t.fixedAtNanos - p.vm.startNanos);
            }
            return ETuple.of(when, ECons.of(l));
        }
    }

    /** ets:safe_fixtable/2 (needs read access, checked by the caller). */
    public static Term safeFixtable(ErlProcess p, EtsTable t, Term flag) {
        boolean on = bool(flag);
        synchronized (t.fixes) {
            if (on) {
                if (t.fixes.isEmpty()) {
                    t.fixedAtNanos = System.nanoTime(); t.fixedAtMillis = System.currentTimeMillis();
                    t.fixChanged(true);
                }
                t.fixes.merge(p.pid, 1, Integer::sum);
                EtsTables.of(p.vm).fixed.add(t);
            } else {
                Integer n = t.fixes.get(p.pid);
                if (n != null) { if (n <= 1) t.fixes.remove(p.pid); else t.fixes.put(p.pid, n - 1); }
                EtsTables.of(p.vm).unfixedIfLast(t);
            }
        }
        return EAtom.TRUE;
    }

    /** ets:setopts/2: {heir, Pid, Data}, {heir, none}, {protection, P}, or a list of them; owner only. */
    public static Term setopts(ErlProcess p, EtsTable t, Term opts) {
        if (!t.owner.equals(p.pid)) throw ErlangException.badarg();
        Term[] os = opts instanceof ETuple ? new Term[] {opts} : ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        for (Term o : os) {
            boolean ok = o instanceof ETuple tu && (
                    (tu.arity() == 3 && tu.get(0) == a("heir") && tu.get(1) instanceof EPid)
                    || (tu.arity() == 2 && tu.get(0) == a("heir") && tu.get(1) == EAtom.NONE)
                    || (tu.arity() == 2 && tu.get(0) == a("protection")
                        && (tu.get(1) == EtsTable.PUBLIC || tu.get(1) == EtsTable.PROTECTED || tu.get(1) == EtsTable.PRIVATE)));
            if (!ok) throw ErlangException.badarg();
        }
        for (Term o : os) {
            ETuple tu = (ETuple) o;
            if (tu.get(0) == a("protection")) t.protection = (EAtom) tu.get(1);
            else if (tu.arity() == 3) { t.heir = (EPid) tu.get(1); t.heirData = tu.get(2); }
            else { t.heir = null; t.heirData = EAtom.NONE; }
        }
        return EAtom.TRUE;
    }
}
