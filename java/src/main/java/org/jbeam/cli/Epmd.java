package org.jbeam.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * As erlexec does: a node started with {@code -sname}/{@code -name} first makes sure the port mapper
 * daemon runs ({@code epmd -daemon}, which returns at once if one is already up), unless
 * {@code -start_epmd false} is given. The node then registers with it through OTP's own erl_epmd.
 */
final class Epmd {
    private Epmd() {}

    static void startIfDistributed(Path otpRoot, List<String> initArgs) {
        boolean named = false, disabled = false;
        for (int i = 0; i < initArgs.size(); i++) {
            String a = initArgs.get(i);
            if (a.equals("-extra")) break;
            if (a.equals("-sname") || a.equals("-name")) named = true;
            if (a.equals("-start_epmd") && i + 1 < initArgs.size() && initArgs.get(i + 1).equals("false")) disabled = true;
        }
        if (!named || disabled) return;
        String epmd = "epmd";
        try (var dirs = Files.newDirectoryStream(otpRoot, "erts-*")) {
            for (Path d : dirs) if (Files.isExecutable(d.resolve("bin/epmd"))) epmd = d.resolve("bin/epmd").toString();
        } catch (java.io.IOException e) {
            // fall back to epmd on PATH
        }
        try {
            new ProcessBuilder(epmd, "-daemon").inheritIO().start().waitFor();
        } catch (java.io.IOException e) {
            System.err.println("jbeam: could not start epmd: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
