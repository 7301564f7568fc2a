package org.jbeam.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * bin/jbeam as a drop-in erl: the same command lines (-eval, -run, -s with arguments, -extra,
 * user flags, halt codes, crashes, init:stop) give the same stdout and exit status as erl.
 */
class CommandLineTest {
    static final String DIR = DifferentialTest.BEAMS.toString();

    static List<List<String>> commandLines() {
        List<List<String>> l = new java.util.ArrayList<>(base());
        // -args_file: erlexec splices the file's arguments in (comments and line breaks are white space).
        try {
            java.nio.file.Path f = DifferentialTest.BEAMS.resolve("cli_args_file.txt");
            java.nio.file.Files.writeString(f, "-noshell\n# a comment line\n-pa " + DIR + "\n-run cli_args show f1 f2  # trailing comment\n");
            l.add(List.of("-args_file", f.toString(), "-s", "erlang", "halt", "-extra", "x"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/usr/lib/elixir/lib/elixir/ebin"))) {
            // What the `elixir -e` script runs: Elixir's CLI on top of OTP.
            l.add(List.of("-noshell", "-elixir_root", "/usr/lib/elixir/lib", "-pa", "/usr/lib/elixir/lib/elixir/ebin",
                    "-s", "elixir", "start_cli", "-extra", "-e",
                    "IO.puts(Enum.sum(1..100)); IO.inspect(%{a: [1, 2], b: \"str\"}); IO.puts(String.upcase(\"ok\"))"));
        }
        return l;
    }

    static List<List<String>> base() {
        return List.of(
                List.of("-noshell", "-eval", "io:format(\"~p~n\", [lists:sum(lists:seq(1,100))]), halt()."),
                List.of("-noshell", "-eval", "io:format(\"a~n\"), halt(3)."),
                List.of("-noshell", "-eval", "foo:bar()."),
                List.of("-noshell", "-eval", "1 = 2."),
                List.of("-noshell", "-eval", "io:format(\"x\"), io:format(\"y~n\")", "-s", "erlang", "halt"),
                List.of("-noshell", "-pa", DIR, "-run", "cli_args", "show", "a", "b", "-s", "erlang", "halt"),
                List.of("-noshell", "-pa", DIR, "-s", "cli_args", "show", "x", "y", "-s", "erlang", "halt"),
                List.of("-noshell", "-pa", DIR, "-run", "cli_args", "show", "-s", "erlang", "halt", "-extra", "p1", "p2"),
                List.of("-noshell", "-pa", DIR, "-myflag", "v1", "v2", "-run", "cli_args", "args", "q", "-s", "erlang", "halt"),
                List.of("-noshell", "-pa", DIR, "-run", "cli_args", "crash"),
                List.of("-noshell", "-pa", DIR, "-run", "cli_args", "stop"),
                List.of("-noshell", "-pa", DIR, "-s", "cli_args", "main", "-s", "init", "stop"),
                List.of("-noshell", "-eval", "erlang:halt(\"custom slogan\")."),
                // Plain arguments after -eval's expression crash init (prepare_run_args): the node goes down, status 1.
                List.of("-noshell", "-eval", "io:format(\"no~n\"), halt().", "p1", "p2"),
                List.of("-noshell", "-env", "JBEAM_T", "v1", "-eval", "io:format(\"~p~n\", [os:getenv(\"JBEAM_T\")]), halt()."),
                List.of("-noshell", "+S", "1", "-eval", "io:format(\"~p~n\", [erlang:system_info(schedulers)]), halt()."),
                // The environment erl's script and erlexec set up, which port programs such as heart rely on.
                List.of("-noshell", "-eval", "[io:format(\"~s=~p~n\", [K, os:getenv(K)]) || K <- [\"ROOTDIR\", \"BINDIR\", \"EMU\", \"PROGNAME\"]],"
                        + " io:format(\"~p~n\", [os:find_executable(\"heart\") =/= false]), halt()."),
                List.of("-heart", "-noshell", "-eval", "io:format(\"~p~n\", [is_pid(whereis(heart))]), halt()."));
    }

    @TestFactory
    Stream<DynamicTest> sameAsErl() {
        return commandLines().stream().map(args -> DynamicTest.dynamicTest(String.join(" ", args), () -> {
            DifferentialTest.Outcome expected = DifferentialTest.run("erl", args);
            DifferentialTest.Outcome actual = DifferentialTest.run(DifferentialTest.JBEAM.toString(), args);
            assertEquals(expected.stdout(), actual.stdout(), "stdout");
            assertEquals(expected.status(), actual.status(), "exit status");
        }));
    }

    /**
     * Emulator flags and erlexec's shorthands whose effect shows on standard error too: +V and
     * -version, +P/+Q/+A with erts' ranges and rounding (and a spawn beyond the process limit),
     * a bad value (erts' message, status 1), -compile (c:lc_batch's report and status).
     */
    @TestFactory
    Stream<DynamicTest> emulatorFlags() throws java.io.IOException {
        java.nio.file.Path bad = java.nio.file.Files.createTempFile("cli_bad", ".erl");
        java.nio.file.Files.writeString(bad, "-module(cli_bad).\nf( -> ok.\n");
        String limits = "io:format(\"~p~n\", [[erlang:system_info(I) || I <- [process_limit, port_limit, thread_pool_size]]]), halt().";
        List<List<String>> cases = List.of(
                List.of("+V"),
                List.of("-version", "-noshell", "-eval", "halt()."),
                List.of("-noshell", "+P", "5000", "+Q", "70000", "+A", "4", "-eval", limits),
                List.of("-noshell", "+P2000000", "+A", "0", "-eval", limits),
                List.of("-noshell", "+P", "100", "-eval", limits),
                List.of("-noshell", "+Q", "abc", "-eval", limits),
                List.of("-noshell", "+A", "2000", "-eval", limits),
                List.of("-noshell", "+P", "1024", "-eval", "R = (catch [spawn(fun() -> receive x -> ok end end) || _ <- lists:seq(1, 2000)]),"
                        + " timer:sleep(500), io:format(\"~p ~p~n\", [element(1, element(2, R)), erlang:system_info(process_count)]), halt()."),
                // RabbitMQ's command line: allocator, scheduler and dist-buffer flags take the
                // next argument as their value (erlexec), so none of it reaches -boot's arguments
                List.of("-noshell", "-boot", "start_sasl", "+W", "w", "+MBas", "ageffcbf", "+MHas", "ageffcbf", "+MBlmbcs", "512",
                        "+MMmcs", "30", "+stbt", "db", "+zdbbl", "128000", "+sbwt", "none", "+pc", "unicode", "+hms", "300", "+c", "true", "+B", "i",
                        "-eval", "io:format(\"~p ~p~n\", [init:get_argument(boot), init:get_plain_arguments()]), halt()."),
                // +sbwt (how long an idle scheduler spins): every value erts knows runs the node
                // (RabbitMQ passes none), another is erts' usage error
                List.of("-noshell", "+sbwt", "none", "-eval", "P = self(), [spawn(fun() -> P ! I end) || I <- lists:seq(1, 200)],"
                        + " io:format(\"~p~n\", [lists:sum([receive N -> N end || _ <- lists:seq(1, 200)])]), halt()."),
                List.of("-noshell", "+sbwt", "very_long", "+S", "1", "-eval", "io:format(\"~p~n\", [erlang:system_info(schedulers)]), halt()."),
                List.of("-noshell", "+sbwt", "longest", "-eval", "halt()."),
                List.of("-noinput", "-eval", "io:format(\"~p ~p~n\", [init:get_argument(noshell), init:get_argument(noinput)]), halt()."),
                List.of("-compile"),
                List.of("-compile", bad.toString()));
        return cases.stream().map(args -> DynamicTest.dynamicTest(String.join(" ", args), () -> {
            String expected = withStderr("erl", args), actual = withStderr(DifferentialTest.JBEAM.toString(), args);
            assertEquals(expected, actual);
        }));
    }

    /** -home comes from $HOME, as erlexec passes it (auth reads the cookie there), not from the user database. */
    @Test
    void homeFromEnvironment() throws Exception {
        java.nio.file.Path home = java.nio.file.Files.createTempDirectory("cli_home");
        List<String> args = List.of("-noshell", "-eval", "io:format(\"~p~n\", [init:get_argument(home)]), halt().");
        String[] outs = new String[2];
        int k = 0;
        for (String exe : List.of("erl", DifferentialTest.JBEAM.toString())) {
            ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(exe), args.stream()).toList());
            pb.environment().put("HOME", home.toString());
            pb.redirectErrorStream(true);
            Process p = pb.start();
            outs[k++] = new String(p.getInputStream().readAllBytes()) + "status " + p.waitFor();
        }
        assertEquals("{ok,[[\"" + home + "\"]]}\nstatus 0", outs[0]);
        assertEquals(outs[0], outs[1]);
    }

    /** Standard output and error together (with the timestamped report lines left out), and the exit status. */
    private static String withStderr(String exe, List<String> args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(exe), args.stream()).toList());
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        // erl also prints its list of flags after the usage line; jbeam prints the usage line only.
        int flags = out.indexOf("The flags are:");
        if (flags >= 0) out = out.substring(0, flags);
        out = out.replaceAll("=ERROR REPORT==== .* ===\r?\n", "=ERROR REPORT====\n");
        return out + "status " + p.waitFor();
    }

    /**
     * erl without -noshell and its standard input a pipe: the shell reads expressions line by
     * line (OTP's user, as user_drv falls back to it without a terminal) and prints prompts and
     * results, errors included, until halt(), q() or end of input.
     */
    @TestFactory
    Stream<DynamicTest> shellFromPipe() {
        List<String> inputs = List.of(
                "X = 1 + 2.\nio:format(\"~p~n\", [X]).\nlists:seq(1,5).\nfoo(.\n1/0.\nrd(r, {a, b = 2}).\n#r{a = 1}.\nv(2).\nhalt().\n",
                "A = [1,2,3].\nlists:sum(A).\nrecord_info(fields, x).\nf(A).\nA.\nq().\n",
                "io:get_line(\"p> \").\nthis line is data\n{ok, T} = io:read(\"r> \").\n{a, b}.\n");
        return inputs.stream().map(in -> DynamicTest.dynamicTest(in.replace("\n", " | "), () -> {
            java.io.File f = java.io.File.createTempFile("shell", ".in");
            try {
                java.nio.file.Files.writeString(f.toPath(), in);
                DifferentialTest.Outcome expected = DifferentialTest.run("erl", List.of(), f);
                DifferentialTest.Outcome actual = DifferentialTest.run(DifferentialTest.JBEAM.toString(), List.of(), f);
                assertEquals(expected.stdout(), actual.stdout(), "stdout");
                assertEquals(expected.status(), actual.status(), "exit status");
            } finally {
                f.delete();
            }
        }));
    }

    /**
     * -detached: the command returns at once with status 0 and no output, and the node goes on
     * running on its own (here it writes a file, then halts), on erl and on jbeam alike.
     */
    @TestFactory
    Stream<DynamicTest> detached() {
        return Stream.of("erl", DifferentialTest.JBEAM.toString()).map(exe -> DynamicTest.dynamicTest(exe, () -> {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("detached", ".txt");
            java.nio.file.Files.delete(f);
            try {
                long t0 = System.nanoTime();
                DifferentialTest.Outcome o = DifferentialTest.run(exe, List.of("-detached", "-eval",
                        "file:write_file(\"" + f + "\", io_lib:format(\"~p\", [init:get_argument(noinput)])), halt()."));
                assertEquals("", o.stdout());
                assertEquals(0, o.status());
                org.junit.jupiter.api.Assertions.assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "returned at once");
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!java.nio.file.Files.exists(f) && System.nanoTime() < deadline) Thread.sleep(100);
                Thread.sleep(200);
                assertEquals("{ok,[[]]}", java.nio.file.Files.readString(f));
            } finally {
                java.nio.file.Files.deleteIfExists(f);
            }
        }));
    }
}
