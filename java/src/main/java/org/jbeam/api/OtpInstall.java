package org.jbeam.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds the installed Erlang/OTP (for its standard library .beam files), the way erl users expect. */
public final class OtpInstall {
    private OtpInstall() {}

    /** $JBEAM_OTP_ROOT, else the root of the `erl` on PATH, else /usr/lib/erlang; null if none exists. */
    public static Path find() {
        String env = System.getenv("JBEAM_OTP_ROOT");
        if (env != null && Files.isDirectory(Path.of(env, "lib"))) return Path.of(env);
        String pathVar = System.getenv("PATH");
        if (pathVar != null) {
            for (String dir : pathVar.split(":")) {
                Path erl = Path.of(dir, "erl");
                if (!Files.isExecutable(erl)) continue;
                try {
                    Path real = erl.toRealPath();
                    // <root>/bin/erl (symlinked from /usr/bin/erl on Debian)
                    Path root = real.getParent().getParent();
                    if (Files.isDirectory(root.resolve("lib"))) return root;
                } catch (IOException e) {
                    // unreadable: keep looking
                }
            }
        }
        Path def = Path.of("/usr/lib/erlang");
        return Files.isDirectory(def.resolve("lib")) ? def : null;
    }

    /** lib/*&#47;ebin of the installation (erts first: its preloaded modules), sorted by application. */
    public static List<Path> codePath(Path root) {
        List<Path> erts = new ArrayList<>(), libs = new ArrayList<>();
        try (Stream<Path> s = Files.list(root.resolve("lib"))) {
            s.sorted().forEach(app -> {
                Path ebin = app.resolve("ebin");
                if (!Files.isDirectory(ebin)) return;
                if (app.getFileName().toString().startsWith("erts-")) erts.add(ebin); else libs.add(ebin);
            });
        } catch (IOException e) {
            return List.of();
        }
        List<Path> all = new ArrayList<>(erts);
        all.addAll(libs);
        return all;
    }
}
