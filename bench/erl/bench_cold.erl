-module(bench_cold).
-export([run/0]).
%% group: cold
%% Cold, wide code (ADR 0052): one compile of OTP's lists.erl (needs erlang-src) runs some 3,400
%% functions of the compiler, most of them a few thousand times, none for long. Few warm-up
%% calls: what counts here is the cost before anything is warm, bytecode-tier compiles included.
-bench_runs([1, 3]).
run() ->
    [F | _] = filelib:wildcard(filename:join([code:lib_dir(stdlib), "src", "lists.erl"])),
    {ok, lists, Bin} = compile:file(F, [binary, report_errors]),
    true = is_binary(Bin),
    ok.
