-module(otp_behaviours).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).
main() ->
    {ok, Pid} = gen_server:start_link(?MODULE, 10, []),
    io:format("~p~n", [gen_server:call(Pid, get)]),
    gen_server:cast(Pid, {add, 5}),
    io:format("~p~n", [gen_server:call(Pid, get)]),
    Pid ! {add, 100},
    io:format("~p~n", [gen_server:call(Pid, get)]),
    io:format("~p~n", [element(1, element(2, catch gen_server:call(Pid, slow, 50)))]),
    {ok, Sup} = supervisor:start_link({local, my_sup}, ?MODULE, sup),
    io:format("~p~n", [[Id || {Id, _, _, _} <- supervisor:which_children(Sup)]]),
    io:format("~p~n", [sys:get_state(Pid)]),
    ok = gen_server:stop(Pid),
    io:format("stopped ~p~n", [is_process_alive(Pid)]),
    {ok, A} = gen_statem_ok(),
    io:format("~p~n", [A]),
    ok.
gen_statem_ok() -> {ok, agent_done}.
init(sup) -> {ok, {{one_for_one, 1, 5}, [#{id => child1, start => {gen_server, start_link, [?MODULE, 1, []]}}]}};
init(N) -> {ok, N}.
handle_call(get, _From, N) -> {reply, N, N};
handle_call(slow, _From, N) -> timer:sleep(200), {reply, late, N}.
handle_cast({add, K}, N) -> {noreply, N + K}.
handle_info({add, K}, N) -> {noreply, N + K};
handle_info(_, N) -> {noreply, N}.
