package org.jbeam.bif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * The text reports of erlang:system_info(procs | loaded | info) and the sections of a crash dump,
 * in erts' layout (erl_crash.dump format 0.5): {@code =proc:} sections, the loaded-code summary,
 * {@code =memory} and {@code =allocated_areas}. jbeam keeps all terms on one JVM heap, so heap
 * and allocator figures are nominal or estimated (noted where they are produced).
 */
final class SystemDump {
    private SystemDump() {}

    /** system_info(procs): one =proc section per live process, in pid order. */
    static String procs(ErlProcess self, Runtime vm) {
        StringBuilder sb = new StringBuilder();
        List<ErlProcess> ps = new ArrayList<>(vm.processes.all());
        ps.sort(Comparator.comparingInt((ErlProcess q) -> q.pid.serial).thenComparingInt(q -> q.pid.number));
        for (ErlProcess q : ps) if (q.isAlive()) proc(sb, self, q);
        return sb.toString();
    }

    private static void proc(StringBuilder sb, ErlProcess self, ErlProcess q) {
        sb.append("=proc:").append(TermPrinter.print(q.pid)).append('\n');
        String state = q == self ? "Running" : q.suspended() ? "Suspended"
                : q.status() == ErlProcess.WAITING ? "Waiting" : "Scheduled";
        sb.append("State: ").append(state).append('\n');
        if (q.registeredName != null) sb.append("Name: ").append(q.registeredName.name).append('\n');
        sb.append("Spawned as: ").append(mfa(q.initialCall)).append('\n');
        sb.append("Spawned by: ").append(q.parent == null ? "[]" : TermPrinter.print(q.parent)).append('\n');
        sb.append("Message queue length: ").append(q.messageQueueLen()).append('\n');
        sb.append("Number of heap fragments: 0\nHeap fragment data: 0\n");
        List<String> links = new ArrayList<>();
        synchronized (q) { for (EPid l : q.links) links.add(TermPrinter.print(l)); }
        sb.append("Link list: [").append(String.join(", ", links)).append("]\n");
        sb.append("Reductions: ").append(q.reductionsDone).append('\n');
        // Nominal heap figures (see class comment): a fresh erts process's.
        sb.append("Stack+heap: ").append(ProcessInfo.NOMINAL_HEAP_WORDS).append("\nOldHeap: 0\nHeap unused: 0\nOldHeap unused: 0\n");
        sb.append("BinVHeap: 0\nOldBinVHeap: 0\nBinVHeap unused: 46422\nOldBinVHeap unused: 46422\n");
        sb.append("Memory: ").append(ProcessInfo.NOMINAL_MEMORY).append('\n');
        if (q == self || q.status() == ErlProcess.WAITING) {
            sb.append("Stack dump:\n");
            if (Backtrace.of(self, q) instanceof EBitString b) sb.append(new String(b.toByteArray(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private static String mfa(Term t) {
        if (t instanceof ETuple mfa && mfa.arity() == 3) return TermPrinter.print(mfa.get(0)) + ":" + TermPrinter.print(mfa.get(1)) + "/" + TermPrinter.print(mfa.get(2));
        return "unknown";
    }

    /** Estimated code size of a module: its decoded instructions (erts reports the loaded code's bytes). */
    private static long codeSize(BeamModule m) { return m.code == null ? 0 : m.code.length * 40L; }

    /** system_info(loaded): total current and old code, then each module's size. */
    static String loaded(Runtime vm) {
        List<EAtom> mods = vm.code.loaded();
        long total = 0, old = 0;
        StringBuilder body = new StringBuilder();
        for (EAtom name : mods) {
            BeamModule m = vm.code.current(name);
            if (m == null) continue;
            long s = codeSize(m);
            total += s;
            BeamModule o = vm.code.old(name);
            if (o != null) old += codeSize(o);
            body.append(name.name).append(' ').append(s).append('\n');
        }
        return "Current code: " + total + "\nOld code: " + old + "\n" + body;
    }

    /** system_info(allocated_areas): erts' items; sizes estimated from jbeam's tables. */
    static Term allocatedAreas(Runtime vm) {
        long atoms = EAtom.count();
        long code = 0;
        int modules = 0;
        for (EAtom n : vm.code.loaded()) if (vm.code.current(n) instanceof BeamModule m) { code += codeSize(m); modules++; }
        long exports = vm.exports.size();
        return ECons.of(
                area("sys_misc", 58_000), area("static", 527_312),
                ETuple.of(EAtom.of("atom_space"), ESmall.of(atoms * 24), ESmall.of(atoms * 20)),
                area("atom_table", atoms * 16), area("module_table", modules * 400L), area("export_table", exports * 64),
                area("export_list", exports * 200), area("register_table", vm.registry.names().size() * 10L),
                area("fun_table", 4_210), area("module_refs", modules * 48L), area("loaded_code", code),
                area("dist_table", 635), area("node_table", 291), area("bits_bufs_size", 0), area("bif_timer", 0),
                area("process_table", vm.processes.count() * 8L), area("port_table", 786_432), area("ets_misc", 131_072),
                area("external_alloc", code));
    }

    private static Term area(String name, long bytes) { return ETuple.of(EAtom.of(name), ESmall.of(bytes)); }

    /** system_info(info): the =memory section, then =allocated_areas. */
    static String info(Runtime vm) {
        StringBuilder sb = new StringBuilder(memory());
        sb.append("=allocated_areas\n");
        for (Term t : ECons.toArray(allocatedAreas(vm))) {
            ETuple a = (ETuple) t;
            sb.append(((EAtom) a.get(0)).name).append(':');
            for (int i = 1; i < a.arity(); i++) sb.append(' ').append(TermPrinter.print(a.get(i)));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The =memory section (erlang:memory/0's items). */
    static String memory() {
        StringBuilder sb = new StringBuilder("=memory\n");
        for (String item : new String[] {"total", "processes", "processes_used", "system", "atom", "atom_used", "binary", "code", "ets"})
            sb.append(item).append(": ").append(Memory.value(item)).append('\n');
        return sb.toString();
    }
}
