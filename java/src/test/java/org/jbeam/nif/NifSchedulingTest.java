package org.jbeam.nif;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Dirty NIFs in a running VM with ONE normal scheduler ({@code bin/jbeam +S 1}, the program
 * tests/erl/jbeam_test_nif.erl over native/test_nif.c): a dirty NIF blocked until another process
 * opens a gate through a normal NIF only finishes if it does not hold the scheduler; eight 300 ms
 * dirty sleeps overlap on the dirty IO pool while a ticking process keeps running; a yielding
 * NIF (enif_schedule_nif with flags 0) lets other processes run between its steps. The same
 * module's main/0 is compared with erl by the differential suite.
 */
class NifSchedulingTest {
    static final Path BEAMS = Path.of(System.getProperty("jbeam.erlTests", "target/erl-tests"));

    @Test
    void dirtyNifsDoNotHoldTheOnlyScheduler() throws Exception {
        String expr = "process_flag(trap_exit, true), P = spawn_link(jbeam_test_nif, scheduling, []),"
                + " receive {'EXIT', P, R} -> io:format(\"~w ~w~n\", [erlang:system_info(schedulers), R]) end, halt().";
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of("bin/jbeam").toAbsolutePath().toString(), "+S", "1",
                "-noshell", "-pa", BEAMS.toString(), "-eval", expr));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jbeam did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Matcher m = Pattern.compile("1 \\{results,(\\w+),(\\d+),(\\d+),\\[([a-z_,]*)\\],(\\d+)\\}").matcher(out);
        assertTrue(m.find(), "output: " + out);
        assertEquals("opened", m.group(1), "the dirty waiter held the only scheduler");
        long ms = Long.parseLong(m.group(2)), ticks = Long.parseLong(m.group(3));
        assertTrue(ms >= 300 && ms < 2000, "8 x 300 ms dirty sleeps took " + ms + " ms (serialized: 2400)");
        assertTrue(ticks > 100, "a ticking process ran only " + ticks + " times meanwhile");
        assertEquals("dirty_io,dirty_io,dirty_io,dirty_io,dirty_io,dirty_io,dirty_io,dirty_io", m.group(4));
        long ticks2 = Long.parseLong(m.group(5));
        assertTrue(ticks2 > 100, "a yielding NIF (2000 steps) let another process run only " + ticks2 + " times");
    }
}
