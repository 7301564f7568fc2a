package org.jbeam.nif;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locations of the native libraries the NIF tests load. */
final class NifTestLibs {
    private NifTestLibs() {}

    static Path nativeDir() {
        String d = System.getProperty("jbeam.nativeDir", "target/native");
        Path p = Path.of(d, "native");
        return Files.isDirectory(p) ? p : Path.of(d);
    }

    /** native/test_nif.c, built by CMake. */
    static Path testNif() { return nativeDir().resolve("libjbeam_test_nif.so"); }

    /** An installed OTP application's NIF library, e.g. ("asn1", "asn1rt_nif"). */
    static Path otpNif(String app, String lib) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/usr/lib/erlang/lib"), app + "-*")) {
            for (Path p : ds) {
                Path so = p.resolve("priv/lib/" + lib + ".so");
                if (Files.exists(so)) return so;
            }
        } catch (IOException e) { throw new IllegalStateException(e); }
        throw new IllegalStateException("no " + lib + ".so for " + app);
    }
}
