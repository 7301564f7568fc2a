package org.jbeam;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Differential-test oracle: runs a batch of {@code apply(M, F, Args)} calls in one real {@code erl}
 * and returns one canonical result line per call, in the same encoding {@link #canon} gives for
 * a Java-side result: {@code {ok, Value}} or {@code {Class, Reason}}, with floats as
 * {@code {'$f', Bits}} (exact, and -0.0 kept) and binaries as {@code {'$b', Bytes}}.
 */
public final class ErlOracle {
    private ErlOracle() {}

    /** One call: module, function, arguments (floats allowed anywhere in them). */
    public record Call(String module, String function, Term... args) {}

    private static final String RUNNER = String.join("\n",
            "Dec = fun D({'$f', B}) -> <<F:64/float>> = <<B:64>>, F;",
            "          D(T) when is_tuple(T) -> list_to_tuple(D(tuple_to_list(T)));",
            "          D([H|T]) -> [D(H)|D(T)]; D(X) -> X end,",
            "Enc = fun N(F) when is_float(F) -> <<B:64>> = <<F:64/float>>, {'$f', B};",
            "          N(B) when is_binary(B) -> {'$b', binary_to_list(B)};",
            "          N(T) when is_tuple(T) -> list_to_tuple(N(tuple_to_list(T)));",
            "          N([H|T]) -> [N(H)|N(T)]; N(X) -> X end,",
            "[File, Out] = init:get_plain_arguments(),",
            "{ok, Cases} = file:consult(File),",
            "Res = [try {ok, Enc(apply(M, F, Dec(A)))} catch C:R -> {C, Enc(R)} end || {M, F, A} <- Cases],",
            "ok = file:write_file(Out, [io_lib:format(\"~w~n\", [R]) || R <- Res]),",
            "halt().");

    /** Runs all calls in one erl process; returns the canonical result of each. */
    public static List<String> run(List<Call> calls) {
        try {
            Path in = Files.createTempFile("jbeam-oracle", ".terms"), out = Files.createTempFile("jbeam-oracle", ".out");
            StringBuilder sb = new StringBuilder();
            for (Call c : calls) {
                sb.append('{');
                TermPrinter.atom(sb, EAtom.of(c.module()));
                sb.append(',');
                TermPrinter.atom(sb, EAtom.of(c.function()));
                sb.append(',');
                TermPrinter.print(sb, encode(ECons.of(c.args()), false));
                sb.append("}.\n");
            }
            Files.writeString(in, sb.toString(), StandardCharsets.ISO_8859_1);
            Process p = new ProcessBuilder("erl", "-noshell", "-eval", RUNNER, "-extra", in.toString(), out.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) { p.destroyForcibly(); throw new IllegalStateException("erl timed out"); }
            List<String> lines = Files.readAllLines(out, StandardCharsets.ISO_8859_1);
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            if (lines.size() != calls.size()) throw new IllegalStateException("erl returned " + lines.size() + " lines for " + calls.size() + " calls");
            return lines;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Canonical text of a Java-side evaluation, comparable with {@link #run}'s lines. */
    public static String canon(Supplier<Term> eval) {
        Term r;
        try {
            r = ETuple.of(EAtom.OK, encode(eval.get(), true));
        } catch (ErlangException e) {
            r = ETuple.of(e.cls, encode(e.reason, true));
        }
        return TermPrinter.print(r);
    }

    /** Floats to {'$f', Bits} and (when {@code bins}) binaries to {'$b', Bytes}, recursively. */
    public static Term encode(Term t, boolean bins) {
        return switch (t) {
            case EFloat f -> ETuple.of(EAtom.of("$f"), EInteger.of(new java.math.BigInteger(Long.toUnsignedString(Double.doubleToRawLongBits(f.value)))));
            case EBitString b when bins && b.isBinary() -> {
                List<Term> l = new ArrayList<>();
                for (int i = 0; i < b.byteSize(); i++) l.add(ESmall.of(b.byteAt(i)));
                yield ETuple.of(EAtom.of("$b"), ECons.of(l));
            }
            case ETuple tu -> {
                Term[] a = tu.toArray();
                for (int i = 0; i < a.length; i++) a[i] = encode(a[i], bins);
                yield ETuple.of(a);
            }
            case ECons c -> new ECons(encode(c.head, bins), encode(c.tail, bins));
            default -> t;
        };
    }

    /** An Erlang string (list of character codes). */
    public static Term str(String s) {
        List<Term> l = new ArrayList<>();
        for (int i = 0; i < s.length(); i++) l.add(ESmall.of(s.charAt(i)));
        return ECons.of(l);
    }

    public static Term f(double d) { return new EFloat(d); }
    public static Term i(long v) { return ESmall.of(v); }
    public static Term big(String v) { return EInteger.of(new java.math.BigInteger(v)); }
    public static Term a(String name) { return EAtom.of(name); }
}
