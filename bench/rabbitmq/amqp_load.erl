%% The AMQP client of bench/rabbitmq/run: publishes N messages to queue q1 and fetches them back
%% with basic.get (one round trip each). Records copied from amqp_client.hrl (not on the path here).
-module(amqp_load).
-export([main/0]).
-record(amqp_params_network, {username = <<"guest">>, password = <<"guest">>, virtual_host = <<"/">>, host = "localhost", port = undefined,
        channel_max = 2047, frame_max = 0, heartbeat = 10, connection_timeout = 60000, ssl_options = none,
        auth_mechanisms = [fun amqp_auth_mechanisms:plain/3, fun amqp_auth_mechanisms:amqplain/3], client_properties = [], socket_options = []}).
-record('queue.declare', {ticket = 0, queue = <<"">>, passive = false, durable = false, exclusive = false, auto_delete = false, nowait = false, arguments = []}).
-record('basic.publish', {ticket = 0, exchange = <<"">>, routing_key = <<"">>, mandatory = false, immediate = false}).
-record('basic.get', {ticket = 0, queue = <<"">>, no_ack = false}).
-record('basic.get_ok', {delivery_tag, redelivered = false, exchange, routing_key, message_count}).
-record(amqp_msg, {props, payload = <<>>}).
-record('P_basic', {content_type, content_encoding, headers, delivery_mode, priority, correlation_id, reply_to, expiration, message_id, timestamp, type, user_id, app_id, cluster_id}).
main() ->
    [P, Ns] = init:get_plain_arguments(),
    {ok, _} = application:ensure_all_started(amqp_client),
    {ok, C} = amqp_connection:start(#amqp_params_network{port = list_to_integer(P)}),
    {ok, Ch} = amqp_connection:open_channel(C),
    amqp_channel:call(Ch, #'queue.declare'{queue = <<"q1">>}),
    N = list_to_integer(Ns),
    T0 = erlang:monotonic_time(millisecond),
    [amqp_channel:cast(Ch, #'basic.publish'{routing_key = <<"q1">>}, #amqp_msg{props = #'P_basic'{}, payload = <<I:32, 0:800>>}) || I <- lists:seq(1, N)],
    amqp_channel:call(Ch, #'queue.declare'{queue = <<"q1">>, passive = true}),
    Tp = erlang:monotonic_time(millisecond),
    Got = drain(Ch, 0, N),
    T1 = erlang:monotonic_time(millisecond),
    io:format("published ~p in ~p ms, got ~p in ~p ms~n", [N, Tp - T0, Got, T1 - Tp]),
    amqp_connection:close(C).
drain(Ch, K, N) ->
    case amqp_channel:call(Ch, #'basic.get'{queue = <<"q1">>, no_ack = true}) of
        {#'basic.get_ok'{}, _} -> drain(Ch, K + 1, N);
        _ when K < N -> timer:sleep(10), drain(Ch, K, N);
        _ -> K
    end.
