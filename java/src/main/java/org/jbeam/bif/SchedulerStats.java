package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.DirtyPools;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.ThreadTimes;
import org.jbeam.term.*;

/**
 * statistics/1 items about schedulers: run queue lengths and active tasks (per normal scheduler,
 * then the dirty CPU queue, and the dirty IO queue for the _all variants), scheduler_wall_time and
 * microstate_accounting from runtime.ThreadTimes, and the system_flag/2 switches for the last two.
 * Times are nanoseconds (erts: perf_counter units, which are nanoseconds on Linux too).
 */
final class SchedulerStats {
    private SchedulerStats() {}

    private static final EAtom TYPE = EAtom.of("type"), ID = EAtom.of("id"), COUNTERS = EAtom.of("counters");
    private static final EAtom[] STATES = {EAtom.of("aux"), EAtom.of("check_io"), EAtom.of("emulator"), EAtom.of("gc"),
            EAtom.of("other"), EAtom.of("port"), EAtom.of("sleep")};

    /** The statistics/1 item, or null when {@code item} is not one of these. */
    static Term statistics(ErlProcess p, String item) {
        return switch (item) {
            case "run_queue_lengths" -> list(queues(p, false, false));
            case "run_queue_lengths_all" -> list(queues(p, true, false));
            case "active_tasks" -> list(queues(p, false, true));
            case "active_tasks_all" -> list(queues(p, true, true));
            case "total_run_queue_lengths" -> ESmall.of(sum(queues(p, false, false)));
            case "total_run_queue_lengths_all" -> ESmall.of(sum(queues(p, true, false)));
            case "total_active_tasks" -> ESmall.of(sum(queues(p, false, true)));
            case "total_active_tasks_all" -> ESmall.of(sum(queues(p, true, true)));
            case "scheduler_wall_time" -> wallTime(p, false);
            case "scheduler_wall_time_all" -> wallTime(p, true);
            case "microstate_accounting" -> msacc(p);
            default -> null;
        };
    }

    /** Per normal scheduler, then dirty CPU (and dirty IO with {@code all}); active adds a slice running now. */
    private static long[] queues(ErlProcess p, boolean all, boolean active) {
        var s = p.vm.scheduler;
        int n = s.count();
        long[] r = new long[n + (all ? 2 : 1)];
        for (int i = 0; i < n; i++) r[i] = s.queued(i) + (active && s.busy(i) ? 1 : 0);
        r[n] = p.vm.dirty.queued(DirtyPools.Kind.CPU);
        if (all) r[n + 1] = p.vm.dirty.queued(DirtyPools.Kind.IO);
        return r; // dirty queues: jobs waiting for a thread (those running are not counted)
    }

    private static Term list(long[] v) {
        Term r = ENil.NIL;
        for (int i = v.length - 1; i >= 0; i--) r = new ECons(ESmall.of(v[i]), r);
        return r;
    }

    private static long sum(long[] v) { long t = 0; for (long x : v) t += x; return t; }

    private static Term wallTime(ErlProcess p, boolean all) {
        ThreadTimes tt = p.vm.threadTimes;
        if (!tt.wallTimeOn()) return EAtom.UNDEFINED;
        // As erts: normal and dirty CPU schedulers, and with _all the dirty IO ones too.
        int k = tt.schedulers() + tt.dirtyCpu() + (all ? tt.dirtyIo() : 0);
        List<Term> out = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            long[] bt = tt.wallTime(i);
            out.add(ETuple.of(ESmall.of(i + 1), ESmall.of(bt[0]), ESmall.of(bt[1])));
        }
        return ECons.of(out.toArray(new Term[0]));
    }

    private static Term msacc(ErlProcess p) {
        ThreadTimes tt = p.vm.threadTimes;
        List<Term> out = new ArrayList<>();
        out.add(thread("aux", 1, null));
        for (int i = 0; i < tt.schedulers(); i++) out.add(thread("scheduler", i + 1, tt.msacc(i)));
        out.add(thread("poll", 0, null));
        for (int i = 0; i < tt.dirtyCpu(); i++) out.add(thread("dirty_cpu_scheduler", i + 1, tt.msacc(tt.schedulers() + i)));
        for (int i = 0; i < tt.dirtyIo(); i++)
            out.add(thread("dirty_io_scheduler", i + 1, tt.msacc(tt.schedulers() + tt.dirtyCpu() + i)));
        out.add(thread("async", 0, null));
        return ECons.of(out.toArray(new Term[0]));
    }

    /** One thread's map; {@code bt} {busy, total}: emulator time and the rest as sleep (null: not measured, zeros). */
    private static Term thread(String type, int id, long[] bt) {
        Term[] vals = new Term[STATES.length];
        for (int i = 0; i < vals.length; i++) vals[i] = ESmall.ZERO;
        if (bt != null) {
            vals[2] = ESmall.of(bt[0]);
            vals[6] = ESmall.of(Math.max(0, bt[1] - bt[0]));
        }
        Term counters = EMap.of(STATES.clone(), vals);
        return EMap.of(new Term[] {COUNTERS, ID, TYPE}, new Term[] {counters, ESmall.of(id), EAtom.of(type)});
    }

    /** system_flag(microstate_accounting, true | false | reset). */
    static Term msaccFlag(ErlProcess p, Term action) {
        if (action != EAtom.TRUE && action != EAtom.FALSE && action != EAtom.of("reset")) throw ErlangException.badarg();
        return p.vm.threadTimes.setMsacc(((EAtom) action).name) ? EAtom.TRUE : EAtom.FALSE;
    }
}
