package org.jbeam.bif;

import java.lang.management.ManagementFactory;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erlang:system_info/1, statistics/1 and process_info/1,2: the items programs and OTP itself ask for. */
public final class SystemInfo {
    private SystemInfo() {}

    public static final String OTP_RELEASE = "25", ERTS_VERSION = "13.1.5";

    static void register(BifTable t) {
        t.bif1("erlang", "system_info", SystemInfo::systemInfo);
        t.bif1("erlang", "statistics", SystemInfo::statistics);
        t.bif1("erlang", "process_info", (p, pid) -> ProcessInfo.all(p, pid));
        t.bif2("erlang", "process_info", ProcessInfo::items);
    }

    private static Term str(String s) { return IoLists.stringToCharlist(s); }

    static Term systemInfo(ErlProcess p, Term item) {
        if (item instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == EAtom.of("purify")) return EAtom.FALSE;
        if (item instanceof ETuple tu && tu.arity() == 2 && tu.get(0) instanceof EAtom k && tu.get(1) instanceof EAtom v) {
            if (k.name.equals("wordsize") && (v.name.equals("internal") || v.name.equals("external"))) return ESmall.of(8);
            // jbeam's own item: the completion ring backend file I/O runs on ("io_uring" | "threads").
            if (k.name.equals("jbeam") && v.name.equals("io_backend")) return EAtom.of(org.jbeam.io.SharedRing.backendName());
            // ... and the one tcp sockets get readiness from ("io_uring" | "nio"; ADR 0016).
            if (k.name.equals("jbeam") && v.name.equals("socket_backend")) return EAtom.of(org.jbeam.inet.InetDrivers.socketBackend());
            if (k.name.equals("jbeam") && v.name.equals("socket_receives")) return org.jbeam.inet.InetDrivers.socketReceives();
            if (k.name.equals("cpu_topology") && v.name.equals("defined")) return EAtom.UNDEFINED;
            if (k.name.equals("cpu_topology") && (v.name.equals("detected") || v.name.equals("used"))) return CpuTopology.detected();
        }
        // No erts allocator is enabled here (memory is the JVM heap and malloc): erts answers false
        // for a disabled allocator, and badarg for a name it does not know.
        if (item instanceof ETuple tu && tu.arity() == 2 && (tu.get(0) == EAtom.of("allocator") || tu.get(0) == EAtom.of("allocator_sizes"))) {
            Term known = SystemInfoMore.systemInfo(p, "alloc_util_allocators");
            if (tu.get(1) == EAtom.of("sys_alloc") || tu.get(1) == EAtom.of("mseg_alloc")) return EAtom.FALSE;
            for (Term t = known; t instanceof ECons c; t = c.tail) if (c.head == tu.get(1)) return EAtom.FALSE;
            throw ErlangException.badarg();
        }
        if (!(item instanceof EAtom a)) throw ErlangException.badarg();
        Term more = SystemInfoMore.systemInfo(p, a.name);
        if (more != null) return more;
        switch (a.name) {
            case "procs": return EBitString.ofUtf8(SystemDump.procs(p, p.vm));
            case "loaded": return EBitString.ofUtf8(SystemDump.loaded(p.vm));
            case "info": return EBitString.ofUtf8(SystemDump.info(p.vm));
            case "allocated_areas": return SystemDump.allocatedAreas(p.vm);
            default: break;
        }
        int n = p.vm.scheduler.count();
        int dcpu = p.vm.dirty.threads(org.jbeam.runtime.DirtyPools.Kind.CPU), dio = p.vm.dirty.threads(org.jbeam.runtime.DirtyPools.Kind.IO);
        return switch (a.name) {
            case "otp_release" -> str(OTP_RELEASE);
            case "version" -> str(ERTS_VERSION);
            case "system_version" -> str("Erlang/OTP " + OTP_RELEASE + " [erts-" + ERTS_VERSION + "] [jbeam] [64-bit] [smp:" + n + ":" + n + "] [ds:" + dcpu + ":" + dcpu + ":" + dio + "] [async-threads:" + p.vm.limits.asyncThreads() + "]\n");
            case "system_architecture" -> str("x86_64-pc-linux-gnu");
            case "machine" -> str("BEAM");
            case "schedulers", "schedulers_online", "logical_processors", "logical_processors_available",
                 "logical_processors_online" -> ESmall.of(n);
            case "dirty_cpu_schedulers", "dirty_cpu_schedulers_online" -> ESmall.of(dcpu);
            case "dirty_io_schedulers" -> ESmall.of(dio);
            case "thread_pool_size" -> ESmall.of(p.vm.limits.asyncThreads());
            case "process_count" -> ESmall.of(p.vm.processes.count());
            case "process_limit" -> ESmall.of(p.vm.limits.processes());
            case "port_count" -> ESmall.of(p.vm.ports.all().size());
            case "port_limit" -> ESmall.of(p.vm.limits.ports());
            case "atom_count" -> ESmall.of(EAtom.count());
            case "atom_limit" -> ESmall.of(EAtom.MAX_ATOMS);
            case "ets_limit" -> ESmall.of(8192);
            case "ets_count" -> ESmall.of(org.jbeam.ets.EtsTables.of(p.vm).all().size());
            case "wordsize" -> ESmall.of(8);
            case "endian" -> EAtom.of("little");
            case "os_type" -> ETuple.of(EAtom.of("unix"), EAtom.of("linux"));
            case "os_version" -> osVersion();
            case "smp_support", "threads" -> EAtom.TRUE;
            case "heap_type" -> EAtom.of("private");
            case "emu_flavor" -> EAtom.of("emu");
            case "emu_type", "build_type" -> EAtom.of("opt");
            case "debug_compiled" -> EAtom.FALSE;
            // I/O readiness and completions come from the kernel (io_uring, or epoll under NIO).
            case "kernel_poll" -> EAtom.TRUE;
            case "hipe_architecture" -> EAtom.UNDEFINED;
            case "cpu_topology" -> CpuTopology.detected();
            case "nif_version" -> str("2.16");
            case "driver_version" -> str("3.3");
            case "compat_rel" -> ESmall.of(25);
            case "creation" -> EInteger.of(p.vm.thisCreation & 0xFFFFFFFFL);
            case "start_time" -> ESmall.of(-576460752303423488L / 64);
            case "time_warp_mode" -> EAtom.of("no_time_warp");
            case "time_correction" -> EAtom.TRUE;
            // The JVM reads both clocks with clock_gettime on Linux (System.nanoTime, Instant.now).
            case "os_monotonic_time_source" -> ECons.of(ETuple.of(EAtom.of("function"), EAtom.of("clock_gettime")),
                    ETuple.of(EAtom.of("clock_id"), EAtom.of("CLOCK_MONOTONIC")), ETuple.of(EAtom.of("resolution"), ESmall.of(1_000_000_000)),
                    ETuple.of(EAtom.of("extended"), EAtom.of("no")), ETuple.of(EAtom.of("parallel"), EAtom.of("yes")),
                    ETuple.of(EAtom.of("time"), EInteger.of(System.nanoTime())));
            case "os_system_time_source" -> {
                java.time.Instant now = java.time.Instant.now();
                yield ECons.of(ETuple.of(EAtom.of("function"), EAtom.of("clock_gettime")),
                        ETuple.of(EAtom.of("clock_id"), EAtom.of("CLOCK_REALTIME")), ETuple.of(EAtom.of("resolution"), ESmall.of(1_000_000_000)),
                        ETuple.of(EAtom.of("parallel"), EAtom.of("yes")),
                        ETuple.of(EAtom.of("time"), EInteger.of(java.math.BigInteger.valueOf(now.getEpochSecond()).multiply(java.math.BigInteger.valueOf(1_000_000_000)).add(java.math.BigInteger.valueOf(now.getNano())))));
            }
            case "check_io" -> ENil.NIL;
            case "dist_ctrl" -> ECons.of(p.vm.dist.controllers());
            case "dist_buf_busy_limit" -> EInteger.of(p.vm.dist.busyLimit);
            case "max_heap_size" -> org.jbeam.runtime.GcOptions.DEFAULT.maxHeapSizeTerm();
            case "min_heap_size" -> ETuple.of(EAtom.of("min_heap_size"), ESmall.of(233));
            case "min_bin_vheap_size" -> ETuple.of(EAtom.of("min_bin_vheap_size"), ESmall.of(46422));
            case "fullsweep_after" -> ETuple.of(EAtom.of("fullsweep_after"), ESmall.of(65535));
            case "schedulers_state" -> ETuple.of(ESmall.of(n), ESmall.of(n), ESmall.of(n));
            case "scheduler_id" -> ESmall.ONE;
            case "break_ignored" -> EAtom.FALSE;
            case "trace_control_word" -> ESmall.ZERO;
            case "modified_timing_level" -> EAtom.UNDEFINED;
            case "c_compiler_used" -> ETuple.of(EAtom.of("gnuc"), ETuple.of(ESmall.of(12), ESmall.of(2), ESmall.ZERO));
            case "sequential_tracer" -> org.jbeam.trace.SeqTrace.tracerInfo(p.vm);
            case "outstanding_system_requests_limit" -> ESmall.of(4000);
            case "busy_limit" -> ESmall.of(1024 * 1024);
            default -> throw ErlangException.badarg();
        };
    }

    /** {Major, Minor, Release} of the running kernel, from its release string ("6.18.44-fc-v657"). */
    private static Term osVersion() {
        String[] parts = System.getProperty("os.version", "0.0.0").split("[^0-9]+");
        Term[] v = new Term[3];
        for (int i = 0; i < 3; i++) v[i] = ESmall.of(i < parts.length && !parts[i].isEmpty() ? Long.parseLong(parts[i]) : 0);
        return ETuple.of(v);
    }

    static Term statistics(ErlProcess p, Term item) {
        if (!(item instanceof EAtom a)) throw ErlangException.badarg();
        long upMs = (System.nanoTime() - p.vm.startNanos) / 1_000_000;
        Term more = SystemInfoMore.statistics(p, a.name);
        if (more != null) return more;
        return switch (a.name) {
            // As erts: CPU time (user + system) of the whole VM process, not uptime; the second
            // element is the change since the previous call (VM-wide, like erts).
            case "runtime" -> sinceLast(p.vm.lastRuntimeMs, processCpuMs());
            case "wall_clock" -> sinceLast(p.vm.lastWallClockMs, upMs);
            // All processes' reductions (up to their last slice), and the change since
            // the previous call, VM-wide as in erts.
            case "reductions", "exact_reductions" -> {
                long total = p.vm.scheduler.totalReductions();
                yield sinceLast(a.name.equals("reductions") ? p.vm.lastReductions : p.vm.lastExactReductions, total);
            }
            case "run_queue" -> ESmall.of(p.vm.scheduler.runQueueLength());
            case "context_switches" -> ETuple.of(ESmall.of(p.vm.scheduler.contextSwitches()), ESmall.ZERO);
            // The JVM's collections stand for erts' per-process ones (words reclaimed are not known).
            case "garbage_collection" -> ETuple.of(ESmall.of(jvmCollections()), ESmall.ZERO, ESmall.ZERO);
            case "io" -> {
                long[] io = p.vm.ports.ioTotals();
                yield ETuple.of(ETuple.of(EAtom.of("input"), ESmall.of(io[0])), ETuple.of(EAtom.of("output"), ESmall.of(io[1])));
            }
            default -> throw ErlangException.badarg();
        };
    }

    private static Term sinceLast(java.util.concurrent.atomic.AtomicLong last, long now) {
        long before = last.getAndAccumulate(now, Math::max);
        return ETuple.of(ESmall.of(now), ESmall.of(Math.max(0, now - before)));
    }

    private static long jvmCollections() {
        long n = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) n += Math.max(0, gc.getCollectionCount());
        return n;
    }

    private static long processCpuMs() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long ns = os.getProcessCpuTime();
            if (ns >= 0) return ns / 1_000_000;
        }
        // No process CPU clock on this platform: the CPU time of all live threads is the next best.
        var threads = ManagementFactory.getThreadMXBean();
        long ns = 0;
        for (long id : threads.getAllThreadIds()) ns += Math.max(0, threads.getThreadCpuTime(id));
        return ns / 1_000_000;
    }
}
