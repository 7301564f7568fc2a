-module(gen_echo).
-behaviour(gen_server).
%% Helper of aliases_by_value: a gen_server that answers {echo, X} with X.
-export([main/0, init/1, handle_call/3, handle_cast/2]).
main() -> ok.
init([]) -> {ok, []}.
handle_call({echo, X}, _From, S) -> {reply, X, S}.
handle_cast(_, S) -> {noreply, S}.
