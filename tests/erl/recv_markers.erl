%% Receive markers (recv_marker_reserve/bind/use/clear) after receives that left theirs bound
%% (ADR 0047). The compiler clears a marker on every way out of its receive, timeouts included,
%% but an exception between the bind and the receive (a send to an unregistered name) leaves it
%% bound. jbeam keeps a fixed array of markers and recycles the oldest when all are taken, as
%% erts does. Exercised: more abandoned and timed-out asks than there are slots (a plain
%% make_ref receive and gen_server:call), later asks with a long mailbox of unrelated
%% messages (selective receive must still find every reply and leave the rest in order), late
%% replies to timed-out asks arriving afterwards, nested outstanding references, guards that
%% fail on a message (an exception in a guard is a failed clause), and a process killed while
%% waiting. Each part runs cold and again hot (compiled by the bytecode tier).
-module(recv_markers).
-export([main/0, ask/3, nested/2, server/1]).
-export([init/1, handle_call/3, handle_cast/2]). % its own gen_server

main() ->
    Srv = spawn(?MODULE, server, [[]]),
    [round(Srv, R) || R <- [cold, hot]],
    Srv ! stop,
    gen_calls(),
    guards(),
    killed_while_waiting(),
    ok.

%% Asks Q and waits for {Ref, Answer}: the compiler binds a receive marker to Ref.
ask(Pid, Q, Timeout) ->
    Ref = make_ref(),
    Pid ! {self(), Ref, Q},
    receive
        {Ref, R} -> {ok, R}
    after Timeout -> timeout
    end.

%% Two references outstanding at once: the inner receive's marker is bound while the outer's is.
nested(Pid, N) ->
    Outer = make_ref(),
    Pid ! {self(), Outer, {echo, {outer, N}}},
    Inner = ask(Pid, {echo, {inner, N}}, infinity),
    receive
        {Outer, R} -> {Inner, R}
    end.

%% Replies at once, or holds the request until told to release (then answers in arrival order).
server(Held) ->
    receive
        {From, Ref, hold} -> server([{From, Ref} | Held]);
        {From, Ref, release} ->
            [From ! {R, {late, I}} || {I, {_, R}} <- lists:zip(lists:seq(1, length(Held)), lists:reverse(Held))],
            From ! {Ref, released},
            server([]);
        {From, Ref, {echo, X}} -> From ! {Ref, X}, server(Held);
        stop -> ok
    end.

round(Srv, Label) ->
    %% 20 timed-out asks (the after path clears each marker).
    T = [ask(Srv, hold, 0) || _ <- lists:seq(1, 20)],
    io:format("~p timed out: ~p~n", [Label, length([x || timeout <- T])]),
    %% 20 asks abandoned by an exception after the bind: their markers stay bound.
    B = [catch ask(recv_markers_no_such_name, hold, 0) || _ <- lists:seq(1, 20)],
    io:format("~p abandoned: ~p~n", [Label, lists:usort([R || {'EXIT', {R, _}} <- B])]),
    %% Unrelated messages queued ahead of every later reply.
    Junk = 3000,
    [self() ! {junk, I} || I <- lists:seq(1, Junk)],
    Rs = [ask(Srv, {echo, I}, infinity) || I <- lists:seq(1, 2500)],
    io:format("~p answers ok: ~p~n", [Label, Rs =:= [{ok, I} || I <- lists:seq(1, 2500)]]),
    Ns = [nested(Srv, I) || I <- lists:seq(1, 50)],
    io:format("~p nested ok: ~p~n", [Label, Ns =:= [{{ok, {inner, I}}, {outer, I}} || I <- lists:seq(1, 50)]]),
    %% The late replies of the timed-out asks arrive now, behind the junk.
    {ok, released} = ask(Srv, release, infinity),
    Left = drain([]),
    {Js, Lates} = lists:partition(fun({junk, _}) -> true; (_) -> false end, Left),
    io:format("~p junk in order: ~p~n", [Label, Js =:= [{junk, I} || I <- lists:seq(1, Junk)]]),
    io:format("~p late replies: ~p~n", [Label, [L || {_, {late, L}} <- Lates]]),
    io:format("~p after the drain: ~p~n", [Label, [ask(Srv, {echo, I}, 1000) || I <- [a, b]]]).

drain(Acc) ->
    receive M -> drain([M | Acc]) after 0 -> lists:reverse(Acc) end.

%% gen_server:call with a timeout that expires (OTP's do_call leaves the marker bound), then
%% plain calls with a long mailbox: each must find its reply and leave the rest.
gen_calls() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    Outs = [catch gen_server:call(S, {sleep, 20}, 1) || _ <- lists:seq(1, 12)],
    io:format("gen timeouts: ~p~n", [[element(1, element(2, O)) || O <- Outs]]),
    [self() ! {junk, I} || I <- lists:seq(1, 2000)],
    Rs = [gen_server:call(S, {echo, I}) || I <- lists:seq(1, 3000)],
    io:format("gen calls ok: ~p~n", [Rs =:= lists:seq(1, 3000)]),
    More = [catch gen_server:call(S, {sleep, 20}, 1) || _ <- lists:seq(1, 3)],
    io:format("gen timeouts again: ~p~n", [[element(1, element(2, O)) || O <- More]]),
    Rs2 = [gen_server:call(S, {echo, I}, 5000) || I <- lists:seq(1, 3000)],
    io:format("gen calls again ok: ~p~n", [Rs2 =:= lists:seq(1, 3000)]),
    Left = drain([]),
    %% Late replies of timed-out calls go to a deactivated alias: dropped (OTP 24+).
    io:format("gen mailbox: ~p ~p~n", [length(Left), Left =:= [{junk, I} || I <- lists:seq(1, 2000)]]),
    gen_server:stop(S).

%% A guard that raises on a message only fails that clause: the message stays queued.
guards() ->
    Ref = make_ref(),
    self() ! {Ref, atom},
    self() ! {Ref, 41},
    R1 = receive {Ref, X} when X + 1 > 2 -> {got, X} after 0 -> none end,
    R2 = receive {Ref, Y} when is_atom(Y), Y + 1 > 0 -> {got, Y} after 0 -> none end,
    R3 = receive {Ref, Z} -> {got, Z} after 0 -> none end,
    io:format("guards: ~p ~p ~p~n", [R1, R2, R3]).

%% A process killed while it waits in a receive with a bound marker.
killed_while_waiting() ->
    Self = self(),
    P = spawn(fun() -> Ref = make_ref(), Self ! {waiting, self()}, receive {Ref, _} -> ok end end),
    receive {waiting, P} -> ok end,
    M = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', M, process, P, Why} -> io:format("killed: ~p~n", [Why]) end.

%% The gen_server: echoes, or sleeps before answering (so calls time out).
init([]) -> {ok, nostate}.

handle_call({echo, X}, _From, S) -> {reply, X, S};
handle_call({sleep, Ms}, _From, S) -> timer:sleep(Ms), {reply, slept, S}.

handle_cast(_, S) -> {noreply, S}.
