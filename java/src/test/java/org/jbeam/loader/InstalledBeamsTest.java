package org.jbeam.loader;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.bif.BifTable;
import org.jbeam.bif.Natives;
import org.jbeam.code.ExportTable;
import org.junit.jupiter.api.Test;

/**
 * Every .beam shipped with the installed OTP (lib/*&#47;ebin, erts' preloaded modules included)
 * and the installed Elixir loads: parse + transform, as erlang:prepare_loading/2 does.
 */
class InstalledBeamsTest {
    static List<Path> installedBeams() throws IOException {
        List<Path> roots = new ArrayList<>();
        Path otp = org.jbeam.api.OtpInstall.find();
        if (otp != null) roots.add(otp.resolve("lib"));
        Path elixir = Path.of("/usr/lib/elixir/lib");
        if (Files.isDirectory(elixir)) roots.add(elixir);
        List<Path> beams = new ArrayList<>();
        for (Path r : roots) {
            try (Stream<Path> apps = Files.list(r)) {
                for (Path app : apps.sorted().toList()) {
                    Path ebin = app.resolve("ebin");
                    if (!Files.isDirectory(ebin)) continue;
                    try (Stream<Path> s = Files.list(ebin)) {
                        s.filter(p -> p.toString().endsWith(".beam")).sorted().forEach(beams::add);
                    }
                }
            }
        }
        return beams;
    }

    @Test
    void everyInstalledBeamPreparesForLoading() throws IOException {
        BifTable bifs = new BifTable();
        Natives.all().forEach(m -> m.register(bifs));
        ExportTable exports = new ExportTable();
        List<Path> beams = installedBeams();
        List<String> failures = new ArrayList<>();
        for (Path b : beams) {
            try {
                Transformer.transform(BeamFile.parse(Files.readAllBytes(b)), exports, bifs);
            } catch (LoadError e) {
                failures.add(b + ": " + e.getMessage());
            }
        }
        System.out.println("installed .beam files prepared: " + (beams.size() - failures.size()) + "/" + beams.size());
        assertTrue(beams.size() > 200, "expected the installed OTP's beams, found " + beams.size());
        assertTrue(failures.isEmpty(), failures.size() + " failed:\n" + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    }
}
