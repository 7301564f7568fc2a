package org.jbeam.etf;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The BIFs in {@link EtfBifs} against erl: each call runs in erl (result or error reason) and
 * through the BifTable with the same arguments (decoded from erl's term_to_binary of them); the
 * outcomes must be identical, including every badarg for bad options and ranges.
 */
class EtfBifsTest {
    static final String CALLS = """
        [{term_to_binary, [a, [bad]]}, {term_to_binary, [a, [{minor_version,3}]]}, {term_to_binary, [a, [{compressed,10}]]},
         {term_to_binary, [a, [{minor_version,2},compressed,{compressed,3},deterministic,{minor_version,0}]]},
         {term_to_binary, [a, [a|b]]}, {term_to_binary, [a, b]}, {term_to_binary, [lists:seq(1,100), [compressed]]},
         {term_to_binary, [<<>>, []]}, {term_to_binary, [a, [{minor_version,-1}]]}, {term_to_binary, [1.5, [{minor_version,0}]]},
         {term_to_binary, [lists:seq(1,100), [{compressed,0}]]}, {term_to_binary, [a, [{compressed,a}]]},
         {term_to_binary, [lists:duplicate(50, <<"abc">>), [{compressed,9}, {minor_version,2}]]}, {term_to_binary, ['é']},
         {term_to_iovec, [a]}, {term_to_iovec, [a, [{minor_version,2}]]}, {term_to_iovec, [a, [bad]]},
         {term_to_iovec, [<<0:800>>, []]}, {term_to_iovec, [{<<1:520,3:3>>, <<2:512>>}, []]},
         {term_to_iovec, [lists:duplicate(100,a), [compressed]]}, {term_to_iovec, [a, [compressed]]},
         {term_to_iovec, [a, [{compressed,0}]]},
         {binary_to_term, [<<131,97,1,2>>]}, {binary_to_term, [<<131,97,1,2>>, [used]]},
         {binary_to_term, [<<131,97,1,2>>, [used,safe]]}, {binary_to_term, [<<131,97,1>>, [bad]]},
         {binary_to_term, [<<131,97,1>>, bad]}, {binary_to_term, [<<131,97,1,0:1>>]}, {binary_to_term, [<<97,1>>]},
         {binary_to_term, [a]}, {binary_to_term, [<<131,97,1>>, [used|x]]},
         {binary_to_term, [<<(term_to_binary(lists:duplicate(100,a), [compressed]))/binary, 1, 2, 3>>, [used]]},
         {binary_to_term, [<<131,100,0,12,"no_such_atom">>, [safe]]}, {binary_to_term, [<<131,100,0,2,"ok">>, [safe]]},
         {binary_to_term, [<<131,104,2,97,1,97,2,0>>]}, {binary_to_term, [<<131,116,0,0,0,2,97,1,97,2,97,1,97,3>>]},
         {binary_to_term, [<<131,77,0,0,0,1,3,255>>]}, {binary_to_term, [<<131,77,0,0,0,1,0,1>>]},
         {binary_to_term, [<<131,118,0,2,196,0>>]}, {binary_to_term, [<<131,70,127,240,0,0,0,0,0,0>>]},
         {binary_to_term, [<<131,99,"1.5",0:(28*8)>>]}, {binary_to_term, [<<131,99,"1.5e400",0:(24*8)>>]},
         {binary_to_term, [<<131,88,119,13,"nonode@nohost",(1 bsl 15):32,0:32,0:32>>]},
         {binary_to_term, [<<131,120,119,13,"nonode@nohost",(1 bsl 28):64,0:32>>]},
         {binary_to_term, [<<131,90,0,2,119,13,"nonode@nohost",0:32,1:32,1:32>>]},
         {binary_to_term, [<<131,90,0,6,119,3,"a@b",0:48/unit:32>>]}, {binary_to_term, [<<131,102,119,3,"a@b",1:32,4>>]},
         {binary_to_term, [<<131,108,0,0,0,0,97,5>>]}, {binary_to_term, [<<131,110,2,0,1,0>>]},
         {binary_to_term, [<<131,113,100,0,1,97,100,0,1,98,98,0,0,0,1>>]}, {binary_to_term, [<<131,113,100,0,1,97,100,0,1,98,97,255>>]},
         {binary_to_term, [<<131,80,0,0,0,0,120,156,3,0,0,0,0,1>>]},
         {external_size, [a]}, {external_size, [a, [{minor_version,2}]]}, {external_size, [a, [{minor_version,0}]]},
         {external_size, [1.5, [{minor_version,0}]]}, {external_size, [a, [deterministic]]},
         {external_size, [a, [compressed]]}, {external_size, [a, b]},
         {phash, [a, 0]}, {phash, [a, 1 bsl 32]}, {phash, [a, 1 bsl 32 + 1]}, {phash, [a, -1]}, {phash, [a, 1.0]},
         {phash, [{x,"y"}, 7]}, {phash2, [a]}, {phash2, [a, 1 bsl 32]}, {phash2, [a, 0]}, {phash2, [a, -1]},
         {phash2, [a, 1 bsl 32 + 1]}, {phash2, [[1,2], 3]}, {phash2, [a, x]}, {phash2, [<<1,2,3:5>>, 12345]}]
        """;

    static final String DRIVER = """
        Calls = %s,
        H = fun(B) -> binary:encode_hex(B) end,
        lists:foreach(fun({I, {F, Args}}) ->
            R = try apply(erlang, F, Args) of V -> {ok, V} catch error:E -> {error, E} end,
            io:format("R ~b ~s ~s ~s~n", [I, F, H(term_to_binary(Args)), H(term_to_binary(R))])
          end, lists:zip(lists:seq(1, length(Calls)), Calls)),
        halt().
        """;

    @TestFactory
    Stream<DynamicTest> bifsMatchErl() throws Exception {
        BifTable table = new BifTable();
        new EtfBifs().register(table);
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : ErlRunner.run(String.format(DRIVER, CALLS))) {
            String[] c = line.split(" ");
            byte[] argsBin = ErlRunner.hex(c[2]);
            Term[] args = ECons.toArray(TermDecoder.decode(argsBin, 0, argsBin.length));
            byte[] expBin = ErlRunner.hex(c[3]);
            Term expected = TermDecoder.decode(expBin, 0, expBin.length);
            String label = "#" + c[0] + " erlang:" + c[1] + TermPrinter.print(ECons.of(args));
            tests.add(DynamicTest.dynamicTest(label.length() > 120 ? label.substring(0, 120) : label, () -> {
                BifTable.Entry e = table.lookup("erlang", c[1], args.length);
                assertNotNull(e, "not registered");
                Term actual;
                try {
                    actual = ETuple.of(EAtom.OK, Bif.invoke(e.fn(), null, args));
                } catch (ErlangException ex) {
                    actual = ETuple.of(EAtom.ERROR, ex.reason);
                }
                assertEquals(expected, actual, label);
            }));
        }
        assertEquals(73, tests.size());
        return tests.stream();
    }
}
