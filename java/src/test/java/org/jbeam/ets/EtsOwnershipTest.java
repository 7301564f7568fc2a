package org.jbeam.ets;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.api.JBeam;
import org.jbeam.bif.Bif;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.Signals;
import org.jbeam.term.*;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Multi-process ETS behaviour (expected values observed in erl 25): access by protection,
 * give_away and heir transfer messages, deletion on owner exit, internal_request_all, and
 * atomic update_counter under concurrent writers.
 */
class EtsOwnershipTest {
    static JBeam node;
    static Runtime vm;
    static final AtomicInteger PIDS = new AtomicInteger(7000);

    @BeforeAll static void start() { node = JBeam.builder().schedulers(2).build(); vm = node.runtime(); }
    @AfterAll static void stop() { node.close(); }

    static ErlProcess proc() { return new ErlProcess(vm, new EPid(vm.nodeName, PIDS.getAndIncrement(), 0, 0)); }
    static EAtom a(String s) { return EAtom.of(s); }

    static Term ets(ErlProcess p, String f, Term... args) {
        return Bif.invoke(vm.bifs.lookup("ets", f, args.length).fn(), p, args);
    }

    static void badarg(ErlProcess p, String f, Term... args) {
        ErlangException e = assertThrows(ErlangException.class, () -> ets(p, f, args));
        assertEquals(EAtom.BADARG, e.reason);
    }

    static List<Term> messages(ErlProcess p) { Signals.drain(p); return p.mailbox.messages(); }

    @Test void protection() {
        ErlProcess owner = proc(), other = proc();
        Term priv = ets(owner, "new", a("x"), ECons.of(a("private")));
        Term prot = ets(owner, "new", a("x"), ENil.NIL);
        Term pub = ets(owner, "new", a("x"), ECons.of(a("public")));
        Term obj = ETuple.of(ESmall.ONE, a("v"));
        for (Term t : List.of(priv, prot, pub)) assertEquals(EAtom.TRUE, ets(owner, "insert", t, obj));
        badarg(other, "lookup", priv, ESmall.ONE);
        badarg(other, "insert", priv, obj);
        assertEquals(ESmall.ONE, ets(other, "info", priv, a("size"))); // info needs no access
        assertEquals(ECons.of(obj), ets(other, "lookup", prot, ESmall.ONE));
        badarg(other, "insert", prot, obj);
        badarg(other, "delete", prot);
        badarg(other, "setopts", pub, ETuple.of(a("heir"), EAtom.NONE)); // owner only
        assertEquals(EAtom.TRUE, ets(other, "insert", pub, ETuple.of(ESmall.of(2), a("w"))));
        assertEquals(ESmall.of(2), ets(owner, "info", pub, a("size")));
        badarg(other, "give_away", pub, other.pid, a("x")); // not the owner
        assertEquals(EAtom.TRUE, ets(other, "delete", pub)); // public: anyone may delete
        assertEquals(EAtom.UNDEFINED, ets(owner, "info", pub));
    }

    @Test void giveAwayAndOwnerExit() {
        ErlProcess owner = proc(), heir = proc(), taker = proc();
        Term t = ets(owner, "new", a("gg"), ECons.of(a("named_table")));
        badarg(owner, "give_away", t, owner.pid, a("x")); // not to oneself
        assertEquals(EAtom.TRUE, ets(owner, "give_away", t, taker.pid, a("gift")));
        assertEquals(List.of(ETuple.of(EtsTables.ETS_TRANSFER, a("gg"), owner.pid, a("gift"))), messages(taker));
        assertEquals(taker.pid, ets(owner, "info", t, a("owner")));
        badarg(owner, "insert", t, ETuple.of(ESmall.ONE));
        // heir: on the owner's exit the table moves to the heir with the heir data
        assertEquals(EAtom.TRUE, ets(taker, "setopts", t, ETuple.of(a("heir"), heir.pid, a("data"))));
        vm.processes.exit(taker, EAtom.NORMAL);
        assertEquals(List.of(ETuple.of(EtsTables.ETS_TRANSFER, a("gg"), taker.pid, a("data"))), messages(heir));
        assertEquals(heir.pid, ets(heir, "info", t, a("owner")));
        // no heir: the table dies with its owner, and its name is free again
        vm.processes.exit(heir, EAtom.NORMAL);
        assertEquals(EAtom.UNDEFINED, ets(owner, "info", t));
        assertEquals(a("gg"), ets(owner, "new", a("gg"), ECons.of(a("named_table"))));
        // a dead heir is skipped
        ErlProcess o2 = proc(), deadHeir = proc();
        vm.processes.exit(deadHeir, EAtom.NORMAL);
        Term t2 = ets(o2, "new", a("x"), ECons.of(ETuple.of(a("heir"), deadHeir.pid, a("d"))));
        vm.processes.exit(o2, EAtom.KILLED);
        assertEquals(EAtom.UNDEFINED, ets(owner, "info", t2));
        badarg(owner, "give_away", a("gg"), deadHeir.pid, a("x"));
    }

    @Test void requestAll() {
        ErlProcess p = proc();
        Term t = ets(p, "new", a("all_test"), ECons.of(a("named_table")));
        Term ref = ets(p, "internal_request_all");
        List<Term> ms = messages(p);
        assertEquals(vm.scheduler.count(), ms.size());
        ETuple first = (ETuple) ms.get(0);
        assertEquals(ref, first.get(0));
        assertTrue(List.of(ECons.toArray(first.get(1))).contains(t));
    }

    @Test void concurrentCounters() throws Exception {
        ErlProcess owner = proc();
        Term t = ets(owner, "new", a("x"), ECons.of(a("public"), a("ordered_set")));
        ets(owner, "insert", t, ETuple.of(a("c"), ESmall.ZERO));
        Thread[] ths = new Thread[4];
        for (int i = 0; i < ths.length; i++) {
            ErlProcess p = proc();
            int base = i * 1000;
            ths[i] = new Thread(() -> {
                for (int j = 0; j < 5000; j++) {
                    ets(p, "update_counter", t, a("c"), ESmall.ONE);
                    ets(p, "insert", t, ETuple.of(ESmall.of(base + j % 1000), ESmall.of(j)));
                    ets(p, "lookup", t, ESmall.of(base + (j * 7) % 1000));
                }
            });
            ths[i].start();
        }
        for (Thread th : ths) th.join();
        assertEquals(ECons.of(ETuple.of(a("c"), ESmall.of(20000))), ets(owner, "lookup", t, a("c")));
        assertEquals(ESmall.of(4001), ets(owner, "info", t, a("size")));
        Term cms = ets(owner, "match_spec_compile", ECons.of(ETuple.of(ETuple.of(a("$1"), a("_")), ENil.NIL, ECons.of(EAtom.TRUE))));
        assertEquals(EAtom.TRUE, ets(owner, "is_compiled_ms", cms));
    }
}
