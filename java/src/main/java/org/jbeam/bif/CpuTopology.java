package org.jbeam.bif;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * erlang:system_info(cpu_topology) as erts detects it on Linux: processors (packages), their
 * cores, and a core's hardware threads, from /sys/devices/system/cpu/cpuN/topology. A core with
 * one thread is {@code {core, {logical, N}}}, one with several lists {@code {thread, {logical, N}}}
 * entries. Read once; undefined where sysfs does not say (as erts answers when it cannot detect).
 */
final class CpuTopology {
    private CpuTopology() {}

    private static volatile Term detected;

    static Term detected() {
        Term t = detected;
        if (t == null) detected = t = detect();
        return t;
    }

    private static final EAtom PROCESSOR = EAtom.of("processor"), CORE = EAtom.of("core"), THREAD = EAtom.of("thread"),
            LOGICAL = EAtom.of("logical");

    private static Term detect() {
        // package id -> core id -> logical cpu ids, all in ascending order
        Map<Integer, Map<Integer, List<Integer>>> packages = new TreeMap<>();
        Path base = Path.of("/sys/devices/system/cpu");
        try (var s = Files.list(base)) {
            for (Path cpu : s.filter(p -> p.getFileName().toString().matches("cpu[0-9]+")).toList()) {
                Path topo = cpu.resolve("topology");
                if (!Files.isDirectory(topo)) continue;
                int id = Integer.parseInt(cpu.getFileName().toString().substring(3));
                int pkg = Integer.parseInt(Files.readString(topo.resolve("physical_package_id")).trim());
                int core = Integer.parseInt(Files.readString(topo.resolve("core_id")).trim());
                packages.computeIfAbsent(pkg, k -> new TreeMap<>()).computeIfAbsent(core, k -> new ArrayList<>()).add(id);
            }
        } catch (IOException | RuntimeException e) {
            return EAtom.UNDEFINED;
        }
        if (packages.isEmpty()) return EAtom.UNDEFINED;
        List<Term> procs = new ArrayList<>();
        for (Map<Integer, List<Integer>> cores : packages.values()) {
            List<Term> cs = new ArrayList<>();
            for (List<Integer> threads : cores.values()) {
                threads.sort(null);
                if (threads.size() == 1) cs.add(ETuple.of(CORE, logical(threads.get(0))));
                else {
                    List<Term> ts = new ArrayList<>();
                    for (int t : threads) ts.add(ETuple.of(THREAD, logical(t)));
                    cs.add(ETuple.of(CORE, ECons.of(ts)));
                }
            }
            procs.add(ETuple.of(PROCESSOR, ECons.of(cs)));
        }
        return ECons.of(procs);
    }

    private static Term logical(int id) { return ETuple.of(LOGICAL, ESmall.of(id)); }
}
