%% dbg with a port as tracer: dbg:tracer(port, dbg:trace_port(file, F)) writes the trace to a file
%% through trace_file_drv (loaded with erl_ddll from runtime_tools' priv dir), dbg:trace_client/3
%% reads it back; the same for a wrapping log and for trace_ip_drv over TCP. The file's framing
%% (<<0, Size:32, term_to_binary(Msg)>>) is checked byte for byte against erts'.
-module(dbg_trace_port).
-export([main/0, double/1, echo/0, sink/0]).

double(X) -> X * 2.

echo() ->
    receive
        {From, X} -> From ! {self(), double(X)}, echo();
        stop -> ok
    end.

sink() -> receive stop -> ok; _ -> sink() end.

main() ->
    Dir = "/tmp/jbeam_dbg_trace_port_" ++ os:getpid(),
    ok = filelib:ensure_dir(Dir ++ "/"),
    File = Dir ++ "/dbg.trace",
    file_port(File),
    raw_file(File),
    wrap(Dir),
    ip(),
    [file:delete(filename:join(Dir, F)) || {ok, Fs} <- [file:list_dir(Dir)], F <- Fs],
    file:del_dir(Dir),
    ok.

%% Calls, returns, sends and receives of a process traced into a file.
file_port(File) ->
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, File)),
    {ok, Tracer} = dbg:get_tracer(),
    io:format("tracer is a port: ~p~n", [is_port(Tracer)]),
    P = spawn(?MODULE, echo, []),
    {ok, _} = dbg:p(P, [call, send, 'receive']),
    {ok, _} = dbg:tpl(?MODULE, double, 1, [{'_', [], [{return_trace}]}]),
    io:format("trace_info tracer is the port: ~p~n", [erlang:trace_info(P, tracer) =:= {tracer, Tracer}]),
    [begin P ! {self(), N}, receive {P, R} -> R end end || N <- [1, 2, 3]],
    P ! stop,
    timer:sleep(50),
    io:format("flush: ~p~n", [dbg:flush_trace_port()]),
    dbg:stop_clear(),
    Events = read_back(file, File),
    io:format("~p events~n", [length(Events)]),
    [io:format("  ~p~n", [clean(E, P)]) || E <- Events].

%% The bytes on disk: each message framed as trace_file_drv frames it.
raw_file(File) ->
    {ok, Bin} = file:read_file(File),
    Terms = frames(Bin),
    io:format("~p bytes, frames ~p, first ~p~n", [byte_size(Bin), length(Terms), element(3, hd(Terms))]).

frames(<<0, Size:32, T:Size/binary, Rest/binary>>) -> [binary_to_term(T) | frames(Rest)];
frames(<<>>) -> [].

%% A wrapping log: files Name0.trc, Name1.trc, ... of about 200 bytes, at most 3 kept.
wrap(Dir) ->
    Base = filename:join(Dir, "w"),
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, {Base, wrap, ".trc", 200, 3})),
    P = spawn(?MODULE, sink, []),
    {ok, _} = dbg:p(P, ['receive']),
    [P ! {msg, N} || N <- lists:seq(1, 40)],
    P ! stop,
    timer:sleep(100),
    dbg:stop_clear(),
    {ok, Fs} = file:list_dir(Dir),
    Wrapped = lists:sort([F || F <- Fs, lists:prefix("w", F)]),
    io:format("wrap files ~p~n", [Wrapped]),
    Events = read_back(file, {Base, wrap, ".trc"}),
    io:format("wrap events ~p, last ~p~n", [length(Events), clean(lists:last(Events), P)]).

%% trace_ip_drv: dbg:trace_port(ip, 0) listens on a free TCP port; trace_client connects to it.
ip() ->
    {ok, _} = dbg:tracer(port, dbg:trace_port(ip, 0)),
    {ok, IpPort} = dbg:trace_port_control(get_listen_port),
    io:format("listen port is an integer: ~p~n", [is_integer(IpPort) andalso IpPort > 0]),
    P = spawn(?MODULE, echo, []),
    {ok, _} = dbg:p(P, [call]),
    {ok, _} = dbg:tpl(?MODULE, double, 1, []),
    [begin P ! {self(), N}, receive {P, R} -> R end end || N <- [5, 6]],
    Self = self(),
    %% The client exits when the connection closes (no end_of_trace): events are collected as they come.
    Client = dbg:trace_client(ip, IpPort, {fun(E, Acc) -> Self ! {event, E}, Acc end, []}),
    Events = [receive {event, E} -> E after 5000 -> timeout end || _ <- [1, 2]],
    dbg:stop_clear(),
    catch dbg:stop_trace_client(Client),
    io:format("ip events ~p~n", [[clean(E, P) || E <- Events]]).

read_back(Kind, What) ->
    Self = self(),
    dbg:trace_client(Kind, What, {fun(end_of_trace, Acc) -> Self ! {events, lists:reverse(Acc)}, Acc;
                                     (E, Acc) -> [E | Acc] end, []}),
    receive {events, Es} -> Es after 10000 -> timeout end.

clean(T, P) when is_tuple(T) -> list_to_tuple([clean(E, P) || E <- tuple_to_list(T)]);
clean(L, P) when is_list(L) -> [clean(E, P) || E <- L];
clean(P, P) -> traced;
clean(X, _) when is_pid(X) -> pid;
clean(X, _) -> X.
