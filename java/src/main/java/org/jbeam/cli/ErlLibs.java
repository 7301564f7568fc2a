package org.jbeam.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** ERL_LIBS: each listed directory's applications contribute their ebin to the code path. */
final class ErlLibs {
    private ErlLibs() {}

    static List<Path> ebinDirs() {
        String v = System.getenv("ERL_LIBS");
        List<Path> r = new ArrayList<>();
        if (v == null || v.isBlank()) return r;
        for (String dir : v.split(":")) {
            if (dir.isBlank()) continue;
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                s.sorted().map(app -> app.resolve("ebin")).filter(Files::isDirectory).forEach(r::add);
            } catch (IOException e) {
                // a missing ERL_LIBS entry is ignored, as by OTP's code server
            }
        }
        return r;
    }
}
