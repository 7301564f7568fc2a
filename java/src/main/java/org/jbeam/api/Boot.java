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
final class Boot {
    private Boot() {}

    static void start(Runtime vm) {
        preload(vm);
        List<Term> args = new ArrayList<>();
        for (String a : vm.args) args.add(EBitString.ofUtf8(a));
        vm.processes.spawn(null, EAtom.of("erl_init"), EAtom.of("start"), new Term[] {EAtom.of("init"), ECons.of(args)}, null);
    }

    /** The socket NIF modules: jbeam is (for now) an emulator built without the socket backend. */
    private static final java.util.Set<String> NOT_PRELOADED = java.util.Set.of("prim_socket.beam", "prim_net.beam", "socket_registry.beam");

    /** Loads erts' preloaded modules (erts-*&#47;ebin), as the emulator has them built in. */
    static void preload(Runtime vm) {
        if (vm.otpRoot == null) return;
        for (java.nio.file.Path dir : org.jbeam.api.OtpInstall.codePath(vm.otpRoot)) {
            if (!dir.getParent().getFileName().toString().startsWith("erts-")) continue;
            try (var s = java.nio.file.Files.list(dir)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beam")).sorted()
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
