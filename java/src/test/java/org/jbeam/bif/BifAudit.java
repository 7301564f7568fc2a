package org.jbeam.bif;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * BIF coverage audit (a tool, not a test): asks the real erl for every native function of OTP 25
 * in erts, kernel, stdlib and compiler — BIFs ({@code erlang:is_builtin/3}, i.e. bif.tab) and NIF
 * stubs (functions whose body calls {@code erlang:nif_error}) — and lists those that have no entry
 * in jbeam's {@link BifTable} (built from {@link Natives#all()}), so their Erlang stub would run.
 *
 * <p>Run: {@code java -cp target/classes:target/test-classes org.jbeam.bif.BifAudit [module...]}.
 * Output: one line per missing function, {@code bif|nif|bif+nif Module:Name/Arity}.
 */
public final class BifAudit {
    private BifAudit() {}

    /** Erlang expression printing "Kind M:F/A" lines for all natives of the given OTP apps. */
    static final String LISTER = """
        CallsNif = fun(Is) -> lists:any(fun({call_ext, _, {extfunc, erlang, nif_error, _}}) -> true;
                                           ({call_ext_only, _, {extfunc, erlang, nif_error, _}}) -> true;
                                           ({call_ext_last, _, {extfunc, erlang, nif_error, _}, _}) -> true;
                                           (_) -> false end, Is) end,
        Mod = fun(File) ->
            case beam_disasm:file(File) of
                {beam_file, M, Exps, _, _, Code} ->
                    Nif = [{M, F, A, nif} || {function, F, A, _, Is} <- Code, CallsNif(Is)],
                    Fs = [{F, A} || {function, F, A, _, _} <- Code] ++ [{F, A} || {F, A, _} <- Exps],
                    Nif ++ [{M, F, A, bif} || {F, A} <- lists:usort(Fs), erlang:is_builtin(M, F, A)];
                _ -> []
            end end,
        Files = lists:append([filelib:wildcard(filename:join(code:lib_dir(A), "ebin/*.beam"))
                              || A <- [erts, kernel, stdlib, compiler]]),
        [io:format("~s ~p:~p/~p~n", [K, M, F, A])
         || {M, F, A, K} <- lists:usort(lists:append([Mod(F) || F <- Files]))],
        halt().
        """;

    /** M:F/A → "bif", "nif" or "bif+nif", for every OTP native. */
    static TreeMap<String, String> otpNatives() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("erl", "-noshell", "-eval", LISTER)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        TreeMap<String, String> r = new TreeMap<>();
        for (String line : out.split("\n")) {
            String[] kv = line.trim().split(" ", 2);
            if (kv.length != 2) continue;
            r.merge(kv[1], kv[0], (a, b) -> a.equals(b) ? a : "bif+nif");
        }
        return r;
    }

    /** The OTP natives jbeam lacks, as "kind M:F/A" lines (optionally only for some modules). */
    static List<String> missing(Set<String> modules) throws IOException, InterruptedException {
        BifTable t = new BifTable();
        for (BifModule m : Natives.all()) m.register(t);
        Set<String> have = new TreeSet<>();
        for (BifTable.Entry e : t.all()) have.add(e.mfa());
        List<String> r = new ArrayList<>();
        otpNatives().forEach((mfa, kind) -> {
            String mod = unquote(mfa.substring(0, mfa.indexOf(':')));
            if (!modules.isEmpty() && !modules.contains(mod)) return;
            if (!have.contains(unquoteMfa(mfa))) r.add(kind + " " + mfa);
        });
        return r;
    }

    private static String unquote(String s) {
        return s.length() > 1 && s.startsWith("'") && s.endsWith("'") ? s.substring(1, s.length() - 1) : s;
    }

    /** erl prints quoted atoms ('=:='); BifTable keys are raw names. */
    private static String unquoteMfa(String mfa) {
        int c = mfa.indexOf(':'), s = mfa.lastIndexOf('/');
        return unquote(mfa.substring(0, c)) + ":" + unquote(mfa.substring(c + 1, s)) + mfa.substring(s);
    }

    public static void main(String[] args) throws Exception {
        List<String> miss = missing(new TreeSet<>(List.of(args)));
        miss.forEach(System.out::println);
        System.err.println(miss.size() + " missing");
    }
}
