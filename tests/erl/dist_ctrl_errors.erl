-module(dist_ctrl_errors).
-export([main/0]).
%% The erlang:dist_ctrl_* BIFs of process-based distribution controllers (ADR 0058) called by a
%% process that controls no connection, on a node that is not distributed: the errors erts raises
%% (notsup for "not a controller", badarg for a term that is no dist handle).
main() ->
    H = {1, make_ref()},
    [io:format("~p: ~p~n", [Name, try F() catch C:R -> {C, R} end]) || {Name, F} <- [
        {get_data, fun() -> erlang:dist_ctrl_get_data(H) end},
        {get_data_atom, fun() -> erlang:dist_ctrl_get_data(foo) end},
        {notification, fun() -> erlang:dist_ctrl_get_data_notification(H) end},
        {set_opt, fun() -> erlang:dist_ctrl_set_opt(H, get_size, true) end},
        {get_opt, fun() -> erlang:dist_ctrl_get_opt(H, get_size) end},
        {input_handler, fun() -> erlang:dist_ctrl_input_handler(foo, self()) end},
        {put_data_bin, fun() -> erlang:dist_ctrl_put_data(foo, <<1, 2>>) end},
        {put_data_list, fun() -> erlang:dist_ctrl_put_data(foo, [<<1>>, 2]) end},
        {put_data_bad, fun() -> erlang:dist_ctrl_put_data(foo, bar) end},
        {get_stat, fun() -> erlang:dist_get_stat(foo) end},
        {system_info, fun() -> erlang:system_info(dist_ctrl) end}]],
    ok.
