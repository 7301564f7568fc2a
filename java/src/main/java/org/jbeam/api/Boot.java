package org.jbeam.api;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Starts a node the way erts does: the first process runs {@code erl_init:start(init, BootArgs)}
 * (OTP's own preloaded modules), which boots OTP from its boot script and then runs the
 * {@code -s}/{@code -run}/{@code -eval} of the command line.
 */
public final class Boot {
    private Boot() {}

    /**
     * The environment the erl script and erlexec give the node (and its port programs):
     * ROOTDIR, BINDIR, EMU, PROGNAME, and PATH starting with erts' bin directory and the
     * installation's bin (so that heart, erl_child_setup's peers and escripts are found).
     */
    static void erlEnvironment(Runtime vm) {
        if (vm.otpRoot == null) return;
        String root = vm.otpRoot.toString();
        String bindir = bindir(vm.otpRoot).toString();
        var env = org.jbeam.bif.OsBifs.environment();
        env.put("ROOTDIR", root);
        env.put("BINDIR", bindir);
        env.put("EMU", "beam");
        env.put("PROGNAME", "erl");
        String path = env.get("PATH");
        String prefix = bindir + ":" + root + "/bin";
        if (path == null || !path.startsWith(prefix)) env.put("PATH", path == null || path.isEmpty() ? prefix : prefix + ":" + path);
    }

    static void start(Runtime vm) {
        erlEnvironment(vm);
        // The bytecode tier waits for the end of the boot script (Runtime.send sees init's
        // {progress, started}): see JitSupport.booting.
        org.jbeam.interp.JitSupport.booting(true);
        preload(vm);
        org.jbeam.loader.LoadStats.mark("preloaded");
        // The first processes in erts' order (erl_init.c), so that init is <0.0.0> and the code
        // purger <0.1.0> as on erl: init, the code purger (init and the code server talk to it),
        // the literal area collector and the three dirty-process signal handlers (normal, high,
        // max). jbeam sends the last four nothing; they wait in their receive loops as on erl.
        List<Term> args = new ArrayList<>();
        for (String a : bootArgs(vm)) args.add(EBitString.ofUtf8(a));
        var held = new org.jbeam.runtime.ProcessTable.SpawnOptions();
        held.hold = true; // runs once the others exist, or its own spawns would take their numbers
        var init = vm.processes.spawn(null, EAtom.of("erl_init"), EAtom.of("start"), new Term[] {EAtom.of("init"), ECons.of(args)}, held);
        String[][] system = {{"erts_code_purger", "high"}, {"erts_literal_area_collector", "high"},
            {"erts_dirty_process_signal_handler", "normal"}, {"erts_dirty_process_signal_handler", "high"},
            {"erts_dirty_process_signal_handler", "max"}};
        for (String[] s : system) {
            var o = new org.jbeam.runtime.ProcessTable.SpawnOptions();
            o.priority = EAtom.of(s[1]);
            vm.processes.spawn(null, EAtom.of(s[0]), EAtom.of("start"), new Term[0], o);
        }
        vm.processes.release(init);
    }

    /** Boot arguments as erts hands them to init:boot/1: erlexec's own flags, then the user's. */
    public static List<String> bootArgs(Runtime vm) {
        List<String> l = new ArrayList<>();
        if (vm.otpRoot != null) {
            l.addAll(List.of("-root", vm.otpRoot.toString(), "-bindir",
                    bindir(vm.otpRoot).toString()));
        }
        // erlexec passes $HOME (where auth finds .erlang.cookie); the JVM's user.home is the
        // password database's entry, which differs when HOME is set (RabbitMQ's scripts, sudo -E).
        String home = System.getenv("HOME");
        l.addAll(List.of("-progname", "erl", "--", "-home", home != null && !home.isEmpty() ? home : System.getProperty("user.home"), "--"));
        l.addAll(vm.args);
        return l;
    }

    /**
     * system_info(emu_args): the emulator's argument vector as erlexec starts beam.smp, the
     * program first (the installed OTP's beam.smp: jbeam stands in for it), then the boot arguments.
     */
    public static List<String> emuArgs(Runtime vm) {
        List<String> l = new ArrayList<>();
        l.add(vm.otpRoot == null ? "jbeam" : bindir(vm.otpRoot).resolve("beam.smp").toString());
        l.add("--");
        l.addAll(bootArgs(vm));
        return l;
    }

    /** erts' bin directory of the installation (erts-VSN/bin), found once per installation root. */
    private static final java.util.concurrent.ConcurrentHashMap<java.nio.file.Path, java.nio.file.Path> BINDIRS = new java.util.concurrent.ConcurrentHashMap<>();

    private static java.nio.file.Path bindir(java.nio.file.Path root) {
        return BINDIRS.computeIfAbsent(root, r -> r.resolve("erts-" + ertsVersion(r)).resolve("bin"));
    }

    private static String ertsVersion(java.nio.file.Path root) {
        try (var s = java.nio.file.Files.list(root.resolve("lib"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("erts-")).map(n -> n.substring(5))
                    .findFirst().orElse("13.1.5");
        } catch (java.io.IOException e) {
            return "13.1.5";
        }
    }

    /** erts-*&#47;ebin modules an emulator does not preload (none since the socket NIF exists, ADR 0054). */
    private static final java.util.Set<String> NOT_PRELOADED = java.util.Set.of();

    /** erts' own preload order (OTP 25's emulator), which erlang:pre_loaded() lists; others follow by name. */
    private static final List<String> ERTS_ORDER = List.of("persistent_term", "counters", "atomics",
            "erts_dirty_process_signal_handler", "erts_literal_area_collector", "erl_tracer", "erts_internal", "erlang",
            "erl_prim_loader", "prim_zip", "prim_net", "prim_socket", "socket_registry", "zlib", "prim_file", "prim_inet",
            "prim_eval", "prim_buffer", "init", "erl_init", "erts_code_purger");

    private static int preloadRank(String file) {
        int i = ERTS_ORDER.indexOf(file.substring(0, file.length() - 5));
        return i < 0 ? ERTS_ORDER.size() : i;
    }

    /** Loads erts' preloaded modules (erts-*&#47;ebin), as the emulator has them built in. */
    static void preload(Runtime vm) {
        if (vm.otpRoot == null) return;
        for (java.nio.file.Path dir : org.jbeam.api.OtpInstall.codePath(vm.otpRoot)) {
            if (!dir.getParent().getFileName().toString().startsWith("erts-")) continue;
            try (var s = java.nio.file.Files.list(dir)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beam"))
                        .sorted(java.util.Comparator.comparingInt(Boot::preloadRank).thenComparing(n -> n))
                        .filter(n -> !NOT_PRELOADED.contains(n))
                        .forEach(n -> {
                            EAtom m = EAtom.of(n.substring(0, n.length() - 5));
                            vm.code.ensureLoaded(m);
                            vm.code.markPreloaded(m);
                        });
            } catch (java.io.IOException e) {
                vm.warn("jbeam: cannot read " + dir + ": " + e.getMessage());
            }
        }
    }
}
