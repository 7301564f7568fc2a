package org.jbeam.ets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jbeam.api.JBeam;
import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.etf.TermDecoder;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test of the ets BIFs against the real erl: {@link EtsSteps} scripts (Erlang term
 * syntax) run once in erl and once through jbeam's BIF table, and every step's printed result
 * must be identical. A step is {Var, Fun, Args} or {Var, Fun, Args, [sort]}: it calls ets:Fun,
 * binds the result to Var ('_' = none); {'@', Var} in Args is a bound value, '$self' the caller.
 * Refs print as '#ref', pids as '#pid', select continuations as '#cont'; errors as
 * {'EXIT', Class, Reason}. erl also hands back the parsed steps (term_to_binary), so only erl parses text.
 */
class EtsDiffTest {
    private static final String RUNNER = String.join("\n",
            "[In, StepsOut, Out] = init:get_plain_arguments(),",
            "{ok, Scripts} = file:consult(In),",
            "ok = file:write_file(StepsOut, term_to_binary(Scripts)),",
            "Canon = fun C(R) when is_reference(R) -> '#ref'; C(P) when is_pid(P) -> '#pid';",
            "  C(T) when tuple_size(T) =:= 8, is_reference(element(5, T)) -> '#cont';",
            "  C(T) when tuple_size(T) =:= 6, is_reference(element(4, T)) -> '#cont';",
            "  C(T) when is_tuple(T) -> list_to_tuple(C(tuple_to_list(T)));",
            "  C([H|T]) -> [C(H)|C(T)]; C(X) -> X end,",
            "Sub = fun S({'@', N}, E) -> maps:get(N, E); S('$self', _) -> self();",
            "  S(T, E) when is_tuple(T) -> list_to_tuple(S(tuple_to_list(T), E));",
            "  S([H|T], E) -> [S(H, E)|S(T, E)]; S(X, _) -> X end,",
            "Call = fun(el, [N, V]) -> element(N, V); (F, A) -> apply(ets, F, A) end,",
            "Srt = fun(L, [sort]) when is_list(L) -> lists:sort(L); ({L, C}, [sort]) when is_list(L) -> {lists:sort(L), C}; (X, _) -> X end,",
            "Run = fun L([], _, Acc) -> lists:reverse(Acc);",
            "  L([Step|Rest], Env, Acc) ->",
            "    {Var, F, A0, Mods} = case Step of {V0, F0, A} -> {V0, F0, A, []}; _ -> Step end,",
            "    R = try {ok, Call(F, Sub(A0, Env))} catch Cl:Re -> {'EXIT', Cl, Re} end,",
            "    Env2 = case R of {ok, V1} when Var =/= '_' -> Env#{Var => V1}; _ -> Env end,",
            "    Shown = case R of {ok, V2} -> Srt(V2, Mods); Ex -> Ex end,",
            "    L(Rest, Env2, [Canon(Shown)|Acc]) end,",
            "Res = [begin P = self(), spawn(fun() -> P ! {done, Run(S, #{}, [])} end), receive {done, X} -> X end end || S <- Scripts],",
            "ok = file:write_file(Out, [[io_lib:format(\"~w~n\", [X]) || X <- R] || R <- Res]),",
            "halt().");

    static JBeam node;
    static Runtime vm;

    @BeforeAll static void start() { node = JBeam.builder().schedulers(1).build(); vm = node.runtime(); }
    @AfterAll static void stop() { node.close(); }

    static int nextPid = 5000;

    static ErlProcess proc() { return new ErlProcess(vm, new EPid(vm.nodeName, nextPid++, 0, 0)); }

    @Test void stepsMatchErl() throws Exception {
        Path in = Files.createTempFile("ets-steps", ".terms"), stepsOut = Files.createTempFile("ets-steps", ".etf"),
                out = Files.createTempFile("ets-steps", ".out");
        Files.writeString(in, EtsSteps.SCRIPTS, StandardCharsets.ISO_8859_1);
        Process pr = new ProcessBuilder("erl", "-noshell", "-eval", RUNNER, "-extra", in.toString(), stepsOut.toString(), out.toString())
                .redirectErrorStream(true).start();
        String log = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(pr.waitFor(120, TimeUnit.SECONDS), "erl timed out");
        byte[] etf = Files.readAllBytes(stepsOut);
        assertTrue(etf.length > 0 && Files.size(out) > 0, "erl failed: " + log);
        Term[] scripts = ECons.toArray(TermDecoder.decode(etf, 0, etf.length));
        List<String> expected = Files.readAllLines(out, StandardCharsets.ISO_8859_1);
        List<String> actual = new ArrayList<>(), shown = new ArrayList<>();
        for (Term script : scripts) {
            ErlProcess p = proc();
            Map<Term, Term> env = new HashMap<>();
            for (Term step : ECons.toArray(script)) {
                actual.add(TermPrinter.print(canon(run(p, (ETuple) step, env))));
                shown.add(TermPrinter.print(step));
            }
            vm.processes.exit(p, EAtom.NORMAL); // as in erl, where each script's process ends (owner-exit hook)
        }
        assertEquals(expected.size(), actual.size(), "step count");
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < actual.size(); i++)
            if (!expected.get(i).equals(actual.get(i)))
                bad.add("step " + i + " " + shown.get(i) + "\n   erl:   " + expected.get(i) + "\n   jbeam: " + actual.get(i));
        System.out.println("ets differential steps: " + actual.size() + ", mismatches: " + bad.size());
        assertTrue(bad.isEmpty(), String.join("\n", bad));
        Files.deleteIfExists(in); Files.deleteIfExists(stepsOut); Files.deleteIfExists(out);
    }

    private static final EAtom AT = EAtom.of("@"), SELF = EAtom.of("$self"), UNDERSCORE = EAtom.of("_"), SORT = EAtom.of("sort");

    static Term run(ErlProcess p, ETuple step, Map<Term, Term> env) {
        Term var = step.get(0);
        String f = ((EAtom) step.get(1)).name;
        Term r;
        try {
            Term[] args = ECons.toArray(sub(step.get(2), env, p));
            r = call(p, f, args);
            if (var != UNDERSCORE) env.put(var, r);
            if (step.arity() == 4 && ECons.toArray(step.get(3)).length > 0 && ECons.toArray(step.get(3))[0] == SORT) r = sort(r);
        } catch (ErlangException e) {
            r = ETuple.of(EAtom.EXIT, e.cls, e.reason);
        }
        return r;
    }

    /** ets:F(Args) through the BIF table, with the Erlang-coded parts of ets.erl the steps use. */
    static Term call(ErlProcess p, String f, Term[] a) {
        BifTable bifs = vm.bifs;
        switch (f + "/" + a.length) {
            case "el/2" -> { return ((ETuple) a[1]).get((int) ((ESmall) a[0]).value - 1); }
            case "tab2list/1" -> { return call(p, "match_object", new Term[] {a[0], UNDERSCORE}); }
            case "delete_all_objects/1" -> { call(p, "internal_delete_all", new Term[] {a[0], EAtom.UNDEFINED}); return EAtom.TRUE; }
            case "select_delete/2" -> { return call(p, "internal_select_delete", a); }
            case "match_spec_run/2" -> {
                Term r = call(p, "match_spec_run_r", new Term[] {a[0], a[1], ENil.NIL});
                Term[] l = ECons.toArray(r);
                java.util.Collections.reverse(java.util.Arrays.asList(l));
                return ECons.of(l);
            }
            default -> {
                BifTable.Entry e = bifs.lookup("ets", f, a.length);
                if (e == null) throw new IllegalStateException("no BIF ets:" + f + "/" + a.length);
                return Bif.invoke(e.fn(), p, a);
            }
        }
    }

    static Term sub(Term t, Map<Term, Term> env, ErlProcess p) {
        if (t == SELF) return p.pid;
        if (t instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == AT) {
            Term v = env.get(tu.get(1));
            if (v == null) throw ErlangException.error(ETuple.of(EAtom.BADKEY, tu.get(1))); // as maps:get in the erl runner
            return v;
        }
        if (t instanceof ETuple tu) {
            Term[] a = tu.toArray();
            for (int i = 0; i < a.length; i++) a[i] = sub(a[i], env, p);
            return ETuple.of(a);
        }
        if (t instanceof ECons c) return new ECons(sub(c.head, env, p), sub(c.tail, env, p));
        return t;
    }

    static Term sort(Term r) {
        if (r instanceof ETuple t && t.arity() == 2 && ECons.length(t.get(0)) >= 0) return ETuple.of(sort(t.get(0)), t.get(1));
        Term[] l = ECons.toArray(r);
        if (l == null) return r;
        java.util.Arrays.sort(l, TermOrder::compare);
        return ECons.of(l);
    }

    static Term canon(Term t) {
        if (t instanceof ERef) return EAtom.of("#ref");
        if (t instanceof EPid) return EAtom.of("#pid");
        if (t instanceof ETuple tu) {
            if ((tu.arity() == 8 && tu.get(4) instanceof ERef) || (tu.arity() == 6 && tu.get(3) instanceof ERef)) return EAtom.of("#cont");
            Term[] a = tu.toArray();
            for (int i = 0; i < a.length; i++) a[i] = canon(a[i]);
            return ETuple.of(a);
        }
        if (t instanceof ECons c) return new ECons(canon(c.head), canon(c.tail));
        return t;
    }
}
