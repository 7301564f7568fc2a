package org.jbeam.runtime;

import org.jbeam.code.BeamModule;
import org.jbeam.term.*;

/**
 * The events of erlang:system_monitor/2 that jbeam sends (ADR 0065): {@code long_schedule}, a
 * process that ran longer than the limit in one scheduling (a NIF or BIF that does not yield, a long
 * slice), and {@code busy_dist_port} (a sender suspended on a busy distribution connection, ADR 0064). The settings are kept by {@code bif/SystemMonitor}, which publishes them in
 * {@link Runtime#systemMonitor}; with no monitor set a slice costs one field read. Not sent:
 * {@code long_gc} and {@code large_heap} (the JVM's collector has no per-process collections or
 * heaps to time or size), {@code long_schedule} for ports, {@code busy_port} (no jbeam port suspends
 * its senders: a gen_tcp sender over the high watermark waits for its inet_reply, as in OTP 25, and
 * erts sends nothing for that either). {@code busy_dist_port} is sent by {@code dist/DistBusy} when it
 * suspends a sender on a busy distribution connection (ADR 0064).
 */
public final class SystemMonitorEvents {
    private SystemMonitorEvents() {}

    /** The events asked for and the process that gets them; null in {@link Runtime#systemMonitor} when none. */
    public record Settings(EPid monitor, long longScheduleMs, boolean busyDistPort) {
        public boolean timesSlices() { return longScheduleMs > 0; }
    }

    private static final EAtom MONITOR = EAtom.of("monitor"), LONG_SCHEDULE = EAtom.of("long_schedule"),
            BUSY_DIST_PORT = EAtom.of("busy_dist_port"), TIMEOUT = EAtom.of("timeout"), IN = EAtom.of("in"), OUT = EAtom.of("out");

    /**
     * A slice of {@code p} that started at {@code t0} (nanoTime) in function {@code inModule}/{@code inPc}
     * ended: {@code {monitor, Pid, long_schedule, [{timeout, Ms}, {in, MFA}, {out, MFA}]}} if it ran
     * longer than the limit ({@code out} is undefined for a process that exited in it).
     */
    public static void sliceEnded(Runtime vm, Settings s, ErlProcess p, long t0, BeamModule inModule, int inPc, boolean exited) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms <= s.longScheduleMs()) return;
        Term in = location(inModule, inPc), out = exited ? EAtom.UNDEFINED : location(p.module, p.pc);
        Term info = ECons.of(ETuple.of(TIMEOUT, ESmall.of(ms)), ETuple.of(IN, in), ETuple.of(OUT, out));
        vm.sendTo(s.monitor(), ETuple.of(MONITOR, p.pid, LONG_SCHEDULE, info));
    }

    /** {@code sender} was suspended on a busy distribution connection: {@code {monitor, Sender, busy_dist_port, Controller}} (ADR 0064). */
    public static void busyDistPort(Runtime vm, EPid sender, Term controller) {
        Settings s = vm.systemMonitor;
        if (s != null && s.busyDistPort()) vm.sendTo(s.monitor(), ETuple.of(MONITOR, sender, BUSY_DIST_PORT, controller));
    }

    private static Term location(BeamModule m, int pc) {
        org.jbeam.code.FuncInfo f = m == null ? null : m.functionAt(pc);
        return f != null ? ETuple.of(m.name, f.name, ESmall.of(f.arity)) : EAtom.UNDEFINED;
    }
}
