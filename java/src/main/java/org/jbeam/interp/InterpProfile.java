package org.jbeam.interp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;

/**
 * Debugging aid ({@code -Djbeam.interp.profile=true}): counts the instructions the interpreter
 * executes, per function, and prints the functions that ran most at exit. It answers "which
 * Erlang code is still interpreted?" (the bytecode tier's thresholds, ADR 0008). Off, the check in
 * the loop is a constant false that HotSpot removes.
 */
final class InterpProfile {
    private InterpProfile() {}

    static final boolean ENABLED = Boolean.getBoolean("jbeam.interp.profile");
    private static final Map<BeamModule, AtomicLongArray> COUNTS = new ConcurrentHashMap<>();

    /**
     * {@code -Djbeam.interp.profile.after=MS}: forget what was counted in the first MS milliseconds,
     * so that the report is of a program's steady state, not of its boot and setup (ADR 0063).
     */
    private static final long AFTER_MS = Long.getLong("jbeam.interp.profile.after", 0);

    static {
        if (ENABLED) org.jbeam.runtime.ExitHooks.add(InterpProfile::report);
        if (ENABLED && AFTER_MS > 0) Thread.ofPlatform().daemon().name("jbeam-profile-reset").start(() -> {
            try { Thread.sleep(AFTER_MS); } catch (InterruptedException e) { return; }
            COUNTS.clear();
        });
    }

    static void count(BeamModule m, int pc) {
        AtomicLongArray a = COUNTS.get(m);
        if (a == null || a.length() != m.code.length) {
            a = new AtomicLongArray(m.code.length);
            COUNTS.put(m, a);
        }
        if (pc < a.length()) a.incrementAndGet(pc);
    }

    private record Row(String name, long count, boolean compiled) {}

    private static void report() {
        List<Row> rows = new ArrayList<>();
        long total = 0;
        for (var e : COUNTS.entrySet()) {
            BeamModule m = e.getKey();
            AtomicLongArray a = e.getValue();
            if (m.functions == null) continue;
            for (FuncInfo f : m.functions) {
                long n = 0;
                for (int pc = f.start; pc < Math.min(f.end, a.length()); pc++) n += a.get(pc);
                if (n > 0) rows.add(new Row(f.toString(), n, f.jitState == 1));
                total += n;
            }
        }
        rows.sort(Collections.reverseOrder((p, q) -> Long.compare(p.count, q.count)));
        System.err.printf("interpreted instructions: %d%n", total);
        for (Row r : rows.subList(0, Math.min(40, rows.size())))
            System.err.printf("%12d %5.1f%% %s%s%n", r.count, 100.0 * r.count / total, r.name, r.compiled ? " (compiled later)" : "");
    }
}
