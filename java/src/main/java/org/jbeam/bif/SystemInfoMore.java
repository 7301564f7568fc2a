package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.*;

/**
 * Further erlang:system_info/1 and statistics/1 items (found by the BIF audit), with erl's values
 * for a node without distribution, tracing or scheduler binding. Returns null for unknown items.
 */
final class SystemInfoMore {
    private SystemInfoMore() {}

    private static final Term HEAP_SIZES;
    static {
        // erl_gc.c: Fibonacci + 1 growth up to index 22, then 20% growth; 137 sizes on 64-bit.
        long[] h = new long[137];
        h[0] = 12;
        h[1] = 38;
        for (int i = 2; i < 23; i++) h[i] = h[i - 1] + h[i - 2] + 1;
        for (int i = 23; i < h.length; i++) h[i] = h[i - 1] + h[i - 1] / 5;
        List<Term> l = new ArrayList<>();
        for (long v : h) l.add(ESmall.of(v));
        HEAP_SIZES = ECons.of(l);
    }

    private static EAtom a(String s) { return EAtom.of(s); }

    static Term systemInfo(ErlProcess p, String item) {
        int n = p.vm.scheduler.count();
        return switch (item) {
            case "delayed_node_table_gc" -> ESmall.of(60);
            case "lock_checking", "lock_counting" -> EAtom.FALSE;
            case "taints" -> LoadNif.taints();
            case "cpu_quota" -> a("unknown");
            case "emu_args" -> {
                java.util.List<Term> l = new java.util.ArrayList<>();
                for (String s : org.jbeam.api.Boot.emuArgs(p.vm)) l.add(IoLists.stringToCharlist(s));
                yield ECons.of(l);
            }
            // Memory comes from the JVM's heap and glibc's malloc; none of erts' alloc_util allocators is enabled.
            case "allocator" -> ETuple.of(a("glibc"), glibcVersion(), ENil.NIL, ENil.NIL);
            case "ethread_info" -> ENil.NIL;
            case "dist" -> EBitString.ofLatin1("=node:'" + p.vm.thisNode.name + "'\n" + (p.vm.dist.alive() ? "" : "=no_distribution\n"));
            case "dynamic_trace" -> a("none");
            case "dynamic_trace_probes", "port_parallelism", "ets_always_compress" -> EAtom.FALSE;
            case "eager_check_io" -> EAtom.TRUE;
            case "end_time" -> ESmall.of(8646911283000000000L);
            case "garbage_collection" -> ECons.of(ETuple.of(a("max_heap_size"), ESmall.ZERO), ETuple.of(a("min_bin_vheap_size"), ESmall.of(46422)),
                    ETuple.of(a("min_heap_size"), ESmall.of(233)), ETuple.of(a("fullsweep_after"), ESmall.of(65535)));
            case "heap_sizes" -> HEAP_SIZES;
            case "message_queue_data" -> a("on_heap");
            case "multi_scheduling" -> a("enabled");
            case "multi_scheduling_blockers", "normal_multi_scheduling_blockers" -> ENil.NIL;
            case "scheduler_bind_type" -> a("unbound");
            case "scheduler_bindings" -> {
                Term[] u = new Term[n];
                java.util.Arrays.fill(u, a("unbound"));
                yield ETuple.of(u);
            }
            case "system_logger" -> {
                Term l = p.vm.registry.whereis(a("logger"));
                yield l == null ? a("logger") : l;
            }
            case "time_offset" -> a("final");
            case "tolerant_timeofday" -> a("enabled");
            case "update_cpu_info" -> a("unchanged");
            case "context_reductions" -> ESmall.of(4000);
            case "alloc_util_allocators" -> ECons.of(a("temp_alloc"), a("sl_alloc"), a("std_alloc"), a("ll_alloc"), a("eheap_alloc"),
                    a("ets_alloc"), a("fix_alloc"), a("literal_alloc"), a("binary_alloc"), a("driver_alloc"));
            default -> null;
        };
    }

    /** Scheduler items (run queues, active tasks, wall time, microstate accounting): {@link SchedulerStats}. */
    /** {@code [Major, Minor]} of the C library the JVM runs on (gnu_get_libc_version). */
    private static Term glibcVersion() {
        try {
            var linker = java.lang.foreign.Linker.nativeLinker();
            var f = linker.defaultLookup().find("gnu_get_libc_version");
            if (f.isPresent()) {
                var h = linker.downcallHandle(f.get(), java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.ADDRESS));
                String v = ((java.lang.foreign.MemorySegment) h.invokeExact()).reinterpret(64).getString(0);
                java.util.List<Term> parts = new java.util.ArrayList<>();
                for (String x : v.split("\\.")) if (x.matches("\\d+")) parts.add(ESmall.of(Long.parseLong(x)));
                return ECons.of(parts);
            }
        } catch (Throwable e) {
            // no glibc (musl): an empty version list
        }
        return ENil.NIL;
    }

    static Term statistics(ErlProcess p, String item) { return SchedulerStats.statistics(p, item); }
}
