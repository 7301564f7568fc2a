package org.jbeam.api;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jbeam.loader.LoadError;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** The embedding API: build, boot OTP, spawn, send, await exit, load errors. */
class JBeamApiTest {
    static final Path BEAMS = Path.of(System.getProperty("jbeam.erlTests", "target/erl-tests"));

    @Test
    void bootSpawnSendAwait() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JBeam vm = JBeam.builder().otpRoot(OtpInstall.find()).addPathFirst(BEAMS).stdout(out)
                .args(List.of("-noshell")).schedulers(2).build().boot()) {
            EPid pid = vm.spawn("api_echo", "start");
            // Wait until it has registered, then talk to it by name.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (vm.runtime().registry.whereis(EAtom.of("api_echo")) == null && System.nanoTime() < deadline) Thread.sleep(5);
            vm.send(EAtom.of("api_echo"), ETuple.of(EAtom.of("add"), ESmall.of(40), ESmall.of(2)));
            assertEquals(EAtom.NORMAL, vm.awaitExit(pid, Duration.ofSeconds(10)));
            EPid crash = vm.spawn("erlang", "error", EAtom.of("boom"));
            Term reason = vm.awaitExit(crash, Duration.ofSeconds(10));
            assertTrue(reason instanceof ETuple t && t.get(0) == EAtom.of("boom"), "exit reason: " + reason);
            assertFalse(vm.isAlive(pid));
            deadline = System.nanoTime() + 5_000_000_000L;
            while (!out.toString().contains("sum 42") && System.nanoTime() < deadline) Thread.sleep(5);
        }
        assertTrue(out.toString().contains("sum 42\n"), "stdout was: " + out);
    }

    @Test
    void malformedModuleIsALoadError() {
        try (JBeam vm = JBeam.builder().build()) {
            LoadError e = assertThrows(LoadError.class, () -> vm.load(new byte[] {'F', 'O', 'R', '1', 0, 0, 0, 4, 'J', 'U', 'N', 'K'}));
            assertEquals("badfile", e.reason);
        }
    }

    /**
     * Java functions through the API; the dirty one suspends its callers (the async-call protocol):
     * 8 callers sleeping 300 ms on 10 dirty-IO threads finish together, stray messages do not
     * resume them, a killed caller never continues, and an Erlang exception from Java is raised.
     */
    @Test
    void javaFunctionsPlainAndDirty() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        try (JBeam vm = JBeam.builder().otpRoot(OtpInstall.find()).addPathFirst(BEAMS)
                .args(List.of("-noshell")).schedulers(1)
                .function("jtest", "plain", 1, a -> ESmall.of(((ESmall) a[0]).value * 2))
                .dirtyFunction("jtest", "slow", 1, org.jbeam.runtime.DirtyPools.Kind.IO, a -> {
                    calls.incrementAndGet();
                    if (!(a[0] instanceof ESmall n)) throw org.jbeam.runtime.ErlangException.badarg();
                    // the victim (1000) sleeps far longer than the 50 ms before its kill: under load
                    // average 20+ 300 ms was not always enough for the kill to land first
                    try { Thread.sleep(n.value == 1000 ? 3000 : 300); } catch (InterruptedException e) { throw new RuntimeException(e); }
                    return ESmall.of(n.value * 10);
                })
                .build().boot()) {
            long t0 = System.nanoTime();
            EPid pid = vm.spawn("api_async", "run", ESmall.of(8));
            Term reason = vm.awaitExit(pid, Duration.ofSeconds(20));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(reason instanceof ETuple t && t.arity() == 4 && t.get(0) == EAtom.of("results"), "exit: " + reason);
            ETuple t = (ETuple) reason;
            assertEquals("[10,20,30,40,50,60,70,80]", org.jbeam.term.TermPrinter.print(t.get(1)));
            assertTrue(org.jbeam.term.TermPrinter.print(t.get(2)).startsWith("{'EXIT',{badarg,"), "caught: " + t.get(2));
            assertEquals(ESmall.of(42), t.get(3));
            assertEquals(10, calls.get(), "each call runs exactly once (8 + victim + bad)");
            // One scheduler, yet the 8 sleeps overlap on the dirty pool.
            assertTrue(ms < 2500, "took " + ms + " ms");
        }
    }
}
