package org.jbeam.etf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test helper: runs one {@code erl -noshell -eval} and returns its stdout lines that start with "R ". */
final class ErlRunner {
    private ErlRunner() {}

    static List<String> run(String evalScript) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("erl", "-noshell", "-eval", evalScript);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        byte[] all = p.getInputStream().readAllBytes();
        p.waitFor();
        List<String> lines = new ArrayList<>();
        for (String l : new String(all, StandardCharsets.UTF_8).split("\n")) if (l.startsWith("R ")) lines.add(l.substring(2));
        if (lines.isEmpty()) throw new IllegalStateException("erl produced no results:\n" + new String(all, StandardCharsets.UTF_8));
        return lines;
    }

    /** Writes {@code terms} to a consult-able UTF-8 file. */
    static Path writeConsultFile(List<String> terms) throws IOException {
        Path f = Files.createTempFile("etf-corpus", ".txt");
        StringBuilder sb = new StringBuilder("%% -*- coding: utf-8 -*-\n");
        for (String t : terms) sb.append(t).append(".\n");
        Files.writeString(f, sb, StandardCharsets.UTF_8);
        f.toFile().deleteOnExit();
        return f;
    }

    static byte[] hex(String s) { return HexFormat.of().parseHex(s); }
    static String hex(byte[] b) { return HexFormat.of().withUpperCase().formatHex(b); }
}
