package org.jbeam.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The part of erlexec that builds the real command line before the emulator sees it: the
 * {@code ERL_AFLAGS} environment variable goes first, then the command line with each
 * {@code -args_file File} replaced by the arguments in that file (recursively), then
 * {@code ERL_FLAGS} and {@code ERL_ZFLAGS}; every {@code -extra} part is moved to the end, after
 * one {@code -extra}. In files and variables, arguments are separated by white space, {@code #}
 * starts a comment to the end of the line, and quotes and backslashes work as in a shell.
 */
final class ArgsExpansion {
    private ArgsExpansion() {}

    static List<String> expand(String[] argv, Map<String, String> env) throws IOException {
        String af = env.getOrDefault("ERL_AFLAGS", ""), f = env.getOrDefault("ERL_FLAGS", ""), zf = env.getOrDefault("ERL_ZFLAGS", "");
        boolean argsFile = false;
        for (String a : argv) {
            if (a.equals("-extra")) break;
            if (a.equals("-args_file")) argsFile = true;
        }
        // As erlexec: the command line is used as it is unless something must be merged into it.
        if (af.isBlank() && f.isBlank() && zf.isBlank() && !argsFile) return List.of(argv);
        List<String> head = new ArrayList<>(), extra = new ArrayList<>();
        add(envTokens(af), head, extra, 0);
        add(List.of(argv), head, extra, 0);
        // erlexec separates the command line from the variables' flags with "--" (init then
        // counts what follows it as plain arguments, up to the next flag).
        if (argv.length > 0) head.add("--");
        add(envTokens(f), head, extra, 0);
        add(envTokens(zf), head, extra, 0);
        if (!extra.isEmpty()) {
            head.add("-extra");
            head.addAll(extra);
        }
        return head;
    }

    /**
     * A variable's arguments end with "--", as erlexec adds them: a flag terminator, or, after the
     * variable's own -extra, a plain argument (ERL_AFLAGS="-extra a" gives the plain arguments a, --).
     */
    private static List<String> envTokens(String value) {
        if (value.isBlank()) return List.of();
        List<String> t = new ArrayList<>(tokens(value));
        t.add("--");
        return t;
    }

    /** Appends {@code args} to {@code head}, expanding -args_file, and what follows -extra to {@code extra}. */
    private static void add(List<String> args, List<String> head, List<String> extra, int depth) throws IOException {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-extra")) {
                extra.addAll(args.subList(i + 1, args.size()));
                return;
            }
            if (a.equals("-args_file") && i + 1 < args.size()) {
                if (depth > 64) throw new IOException("-args_file nested too deeply");
                Path f = Path.of(args.get(++i));
                String text;
                try {
                    text = Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1);
                } catch (IOException e) {
                    // erlexec's wording: the file, the working directory, then strerror's text.
                    String why = e instanceof java.nio.file.NoSuchFileException ? "No such file or directory"
                            : e instanceof java.nio.file.AccessDeniedException ? "Permission denied" : e.getMessage();
                    throw new IOException("Failed to open arguments file \"" + f + "\" at \""
                            + Path.of("").toAbsolutePath() + "\": " + why, e);
                }
                add(tokens(text), head, extra, depth + 1);
                continue;
            }
            head.add(a);
        }
    }

    /** Splits {@code s} into arguments: white space separates, # comments, '…', "…" and \\ quote. */
    static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) { i++; continue; }
            if (c == '#') {
                while (i < n && s.charAt(i) != '\n') i++;
                continue;
            }
            StringBuilder t = new StringBuilder();
            while (i < n && !Character.isWhitespace(s.charAt(i))) {
                c = s.charAt(i++);
                if (c == '\\' && i < n) t.append(s.charAt(i++));
                else if (c == '"' || c == '\'') {
                    char q = c;
                    while (i < n && s.charAt(i) != q) {
                        char d = s.charAt(i++);
                        if (d == '\\' && q == '"' && i < n) d = s.charAt(i++);
                        t.append(d);
                    }
                    i++; // closing quote
                } else t.append(c);
            }
            out.add(t.toString());
        }
        return out;
    }
}
