package org.jbeam.ets;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * The ETS tables of one runtime: lookup by reference and by name, ownership (for the owner-exit
 * hook: delete or hand to the heir), and the registry of compiled match specifications (OTP's
 * magic references returned by ets:match_spec_compile/1).
 */
public final class EtsTables {
    private static final Map<Runtime, EtsTables> BY_VM = Collections.synchronizedMap(new WeakHashMap<>());

    public static final EAtom ETS_TRANSFER = EAtom.of("ETS-TRANSFER");

    final Runtime vm;
    private final ConcurrentHashMap<ERef, EtsTable> byRef = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<EAtom, EtsTable> byName = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<EPid, Set<EtsTable>> owned = new ConcurrentHashMap<>();
    /** Compiled match specs by their magic reference (weak: dropped with the reference). */
    private final Map<ERef, MatchSpec> compiled = Collections.synchronizedMap(new WeakHashMap<>());
    /** Recently compiled specs by source term (select/match with the same spec compile once). */
    private final ConcurrentHashMap<Term, MatchSpec> msCache = new ConcurrentHashMap<>();

    private EtsTables(Runtime vm) { this.vm = vm; }

    /** The last runtime's tables: the lock-free fast path of {@link #of} (normally there is one runtime). */
    private static volatile EtsTables last;

    public static EtsTables of(Runtime vm) {
        EtsTables l = last;
        if (l != null && l.vm == vm) return l;
        synchronized (BY_VM) { l = BY_VM.computeIfAbsent(vm, EtsTables::new); }
        last = l;
        return l;
    }

    /** Tables with safe_fixtable fixes (released when the fixing process exits). */
    final Set<EtsTable> fixed = ConcurrentHashMap.newKeySet();

    /** A fix on {@code t} was released (caller holds {@code t.fixes}): with none left, the table is unfixed. */
    void unfixedIfLast(EtsTable t) {
        if (t.fixes.isEmpty() && fixed.remove(t)) t.fixChanged(false);
    }

    /** The table named or referenced by {@code id}, or null. */
    public EtsTable resolve(Term id) {
        EtsTable t = switch (id) {
            case EAtom a -> byName.get(a);
            case ERef r -> byRef.get(r);
            default -> null;
        };
        return t == null || t.deleted ? null : t;
    }

    public EtsTable byName(EAtom name) { return byName.get(name); }

    /** Registers a new table; false when it is named and the name is taken. */
    public synchronized boolean add(EtsTable t) {
        if (t.named && byName.containsKey(t.name)) return false;
        if (t.named) byName.put(t.name, t);
        byRef.put(t.ref, t);
        owned.computeIfAbsent(t.owner, k -> ConcurrentHashMap.newKeySet()).add(t);
        return true;
    }

    public synchronized void delete(EtsTable t) {
        if (t.deleted) return;
        t.deleted = true;
        byRef.remove(t.ref);
        fixed.remove(t);
        if (t.named) byName.remove(t.name, t);
        Set<EtsTable> s = owned.get(t.owner);
        if (s != null) s.remove(t);
        t.deleteAll();
    }

    /** ets:rename/2; false when the new name is taken by another named table. */
    public synchronized boolean rename(EtsTable t, EAtom name) {
        if (t.named) {
            if (byName.containsKey(name)) return false; // even its own name
            byName.remove(t.name, t);
            byName.put(name, t);
        }
        t.name = name;
        return true;
    }

    /** Moves ownership and sends {'ETS-TRANSFER', Tab, From, Data} to the new owner. */
    public synchronized void transfer(EtsTable t, EPid to, Term data) {
        EPid from = t.owner;
        Set<EtsTable> s = owned.get(from);
        if (s != null) s.remove(t);
        t.owner = to;
        owned.computeIfAbsent(to, k -> ConcurrentHashMap.newKeySet()).add(t);
        vm.sendTo(to, ETuple.of(ETS_TRANSFER, t.tid(), from, data));
    }

    /** Every live table, oldest first (ets:all/0). */
    public List<EtsTable> all() {
        List<EtsTable> l = new ArrayList<>(byRef.values());
        l.sort((a, b) -> TermOrder.compare(a.ref, b.ref));
        return l;
    }

    public static boolean alive(EPid pid) { return pid.process instanceof ErlProcess p && p.isAlive(); }

    /**
     * Hook called by the process table when {@code p} exits: its tables go to their heirs (when
     * alive and not the dying process) or are deleted; its safe_fixtable fixes are released.
     */
    public static void ownerExited(Runtime vm, ErlProcess p) {
        EtsTables ts;
        synchronized (BY_VM) { ts = BY_VM.get(vm); }
        if (ts == null) return;
        Set<EtsTable> mine = ts.owned.remove(p.pid);
        if (mine != null) {
            for (EtsTable t : mine) {
                EPid h = t.heir;
                if (h != null && !h.equals(p.pid) && alive(h)) ts.transfer(t, h, t.heirData);
                else ts.delete(t);
            }
        }
        for (EtsTable t : ts.fixed) {
            synchronized (t.fixes) {
                t.fixes.remove(p.pid);
                ts.unfixedIfLast(t);
            }
        }
    }

    // ---- compiled match specs ----

    public ERef registerCompiled(MatchSpec ms) {
        ERef r = vm.makeRef();
        compiled.put(r, ms);
        return r;
    }

    public MatchSpec compiled(Term ref) { return ref instanceof ERef r ? compiled.get(r) : null; }

    /** Compiles (or reuses) the spec {@code ms}; badarg when invalid. */
    public MatchSpec compile(Term ms, boolean allowEmpty) {
        if (ms == ENil.NIL && !allowEmpty) throw org.jbeam.runtime.ErlangException.badarg();
        MatchSpec c = msCache.get(ms);
        if (c != null) return c;
        c = MatchSpec.compile(ms, vm.bifs, allowEmpty);
        if (msCache.size() > 512) msCache.clear();
        msCache.put(ms, c);
        return c;
    }
}
