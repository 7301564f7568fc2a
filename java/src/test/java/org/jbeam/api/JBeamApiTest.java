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
}
