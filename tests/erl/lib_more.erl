-module(lib_more).
-export([main/0, prop_rev/0]).
%% poolboy's worker: this module as a gen_server
-export([start_link/1, init/1, handle_call/3, handle_cast/2]).
main() ->
    %% bitcask: a NIF-backed log-structured store on real files
    Dir = "/tmp/lib_more_bitcask_" ++ os:getpid(),
    B = bitcask:open(Dir, [read_write]),
    [ok = bitcask:put(B, integer_to_binary(I), binary:copy(<<"v">>, I)) || I <- lists:seq(1, 500)],
    ok = bitcask:delete(B, <<"7">>),
    io:format("bitcask ~p ~p ~p~n", [bitcask:get(B, <<"42">>), bitcask:get(B, <<"7">>), length(bitcask:list_keys(B))]),
    bitcask:close(B),
    B2 = bitcask:open(Dir),
    io:format("reopen ~p~n", [bitcask:get(B2, <<"3">>)]),
    bitcask:close(B2),
    os:cmd("rm -rf " ++ Dir),
    %% meck: replaces a module at run time and restores it
    ok = meck:new(string, [unstick, passthrough]),
    ok = meck:expect(string, to_upper, fun(_) -> "mocked" end),
    io:format("meck ~p ~p~n", [string:to_upper("x"), meck:num_calls(string, to_upper, '_')]),
    meck:unload(string),
    io:format("unmocked ~p~n", [string:to_upper("x")]),
    %% proper: property-based testing with a fixed seed
    io:format("proper ~p~n", [proper:quickcheck(prop_rev(), [quiet, {numtests, 300}, {start_size, 1}])]),
    io:format("proper fail ~p~n", [proper:quickcheck(proper:forall(proper_types:list(proper_types:integer()), fun(L) -> lists:reverse(L) =:= L end), [quiet, {numtests, 300}])]),
    %% luerl: a Lua interpreter in Erlang
    {Res, _} = luerl:do(<<"local t = {} for i=1,10 do t[i] = i*i end return t[3] + t[10], string.upper('lua')">>, luerl:init()),
    io:format("luerl ~p~n", [Res]),
    %% poolboy
    {ok, Pool} = poolboy:start_link([{worker_module, lib_more}, {size, 2}, {max_overflow, 1}], []),
    io:format("poolboy ~p~n", [poolboy:status(Pool)]),
    ok.
prop_rev() -> proper:forall(proper_types:list(proper_types:integer()), fun(L) -> lists:reverse(lists:reverse(L)) =:= L end).
start_link(A) -> gen_server:start_link(?MODULE, A, []).
init(A) -> {ok, A}.
handle_call(_, _, S) -> {reply, ok, S}.
handle_cast(_, S) -> {noreply, S}.
