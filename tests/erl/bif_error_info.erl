-module(bif_error_info).
-export([main/0]).
%% The error_info erts attaches to a failing BIF call (the first stack frame's last element):
%% which module explains it and the cause, for a spread of erlang, binary, lists, maps, unicode
%% and ets BIFs given bad arguments.
main() ->
    Calls = [
     {erlang, atom_to_list, [1]}, {erlang, list_to_atom, [[a]]}, {erlang, binary_to_atom, [<<255>>, utf8]},
     {erlang, list_to_integer, ["1x"]}, {erlang, list_to_integer, ["1", 99]}, {erlang, binary_to_integer, [<<>>]},
     {erlang, integer_to_list, [1, 1]}, {erlang, list_to_float, ["x"]}, {erlang, float_to_list, [1.0, [bad]]},
     {erlang, element, [0, {a}]}, {erlang, setelement, [3, {a}, x]}, {erlang, tuple_size, [[]]},
     {erlang, make_tuple, [-1, a]}, {erlang, append_element, [x, 1]}, {erlang, list_to_tuple, [[a | b]]},
     {erlang, binary_part, [<<1, 2>>, 1, 5]}, {erlang, split_binary, [<<1>>, -1]}, {erlang, binary_to_list, [<<1>>, 0, 1]},
     {erlang, iolist_to_binary, [[256]]}, {erlang, list_to_binary, [[a]]}, {erlang, bit_size, [a]},
     {erlang, term_to_binary, [a, [bad_opt]]}, {erlang, binary_to_term, [<<131, 255>>]}, {erlang, binary_to_term, [<<131, 100>>, [bad]]},
     {erlang, send, [a_name_not_registered, m]}, {erlang, exit, [not_a_pid, r]}, {erlang, link, [a]},
     {erlang, monitor, [bad_type, self()]}, {erlang, process_info, [self(), bad_item]}, {erlang, process_flag, [bad, 1]},
     {erlang, spawn_opt, [erlang, self, [], [bad]]}, {erlang, register, [a, not_a_pid]}, {erlang, unregister, [x_not_reg]},
     {erlang, whereis, [1]}, {erlang, put, []}, {erlang, erase, [a, b]},
     {erlang, abs, [a]}, {erlang, trunc, [a]}, {erlang, round, ["1"]}, {erlang, float, [a]},
     {erlang, '+', [a, 1]}, {erlang, 'div', [1, 0]}, {erlang, 'bsl', [1, a]}, {erlang, '-', [a]},
     {erlang, hd, [[]]}, {erlang, tl, [a]}, {erlang, length, [[a | b]]}, {erlang, '++', [a, [b]]}, {erlang, '--', [[a], b]},
     {erlang, node, [1]}, {erlang, is_process_alive, [1]}, {erlang, demonitor, [1]},
     {erlang, send_after, [-1, self(), m]}, {erlang, cancel_timer, [1]}, {erlang, start_timer, [1, 1, m]},
     {erlang, atom_to_binary, [a, latin2]}, {erlang, binary_to_existing_atom, [<<"surely_not_an_atom_q">>, utf8]},
     {erlang, list_to_existing_atom, ["surely_not_an_atom_z"]}, {erlang, list_to_pid, ["<x>"]}, {erlang, list_to_ref, ["#Ref<x>"]},
     {erlang, fun_info, [a]}, {erlang, fun_info, [fun() -> ok end, bad]}, {erlang, apply, [a, b, c]},
     {erlang, make_ref, [x]}, {erlang, phash2, [a, 0]}, {erlang, system_info, [bad_item_q]},
     {erlang, convert_time_unit, [1, bad, second]}, {erlang, monotonic_time, [bad]}, {erlang, universaltime_to_localtime, [bad]},
     {erlang, external_size, [a, [bad]]}, {erlang, is_map_key, [a, b]}, {erlang, map_get, [a, #{}]}, {erlang, map_size, [a]},
     {binary, part, [<<1>>, 2, 1]}, {binary, at, [<<1>>, 5]}, {binary, copy, [<<1>>, -1]}, {binary, split, [<<1>>, <<>>]},
     {binary, matches, [<<1>>, []]}, {binary, replace, [<<1>>, <<1>>, a]}, {binary, decode_unsigned, [<<1>>, middle]},
     {lists, reverse, [a, []]}, {lists, keyfind, [a, 0, []]}, {lists, member, [a, b]}, {lists, keymember, [a, 1, b]},
     {lists, keysearch, [a, -1, []]},
     {maps, get, [a, not_map]}, {maps, put, [a, 1, not_map]}, {maps, from_list, [[a]]}, {maps, keys, [x]}, {maps, merge, [#{}, x]},
     {maps, find, [a, x]}, {maps, remove, [a, x]}, {maps, take, [a, x]}, {maps, update, [a, 1, #{}]},
     {unicode, characters_to_binary, [[-1]]}, {unicode, characters_to_list, [a]},
     {ets, new, [a, [bad]]}, {ets, lookup, [no_such_tab_q, a]}, {ets, insert, [no_such_tab_q, {a}]}, {ets, delete, [no_such_tab_q]},
     {ets, info, [1]}, {ets, match, [no_such_tab_q, a]}, {ets, update_counter, [no_such_tab_q, a, 1]},
     {atomics, new, [0, []]}, {counters, new, [-1, []]}, {persistent_term, get, [q_not_there_q]},
     {erlang, halt, [bad]}, {erlang, open_port, [{bad}, []]}, {erlang, port_command, [a, b]}, {erlang, port_close, [a]},
     {math, sqrt, [a]}, {math, log, [-1]}, {math, pow, [a, 1]},
     {erlang, send_after, [a, self(), m]}, {erlang, send_after, [1, 1, m]}, {erlang, send_after, [1, self(), m, [bad]]},
     {erlang, send_after, [1 bsl 40, self(), m]}, {erlang, start_timer, [-1, self(), m, [{abs, true}]]},
     {erlang, spawn_opt, [fun() -> ok end, bad]}, {erlang, binary_to_term, [<<131, 100>>, bad]},
     {erlang, garbage_collect, [self(), [bad]]}, {erlang, garbage_collect, [self(), bad]},
     {erlang, garbage_collect, [self(), [{type, minor}]]}, {erlang, garbage_collect, [list_to_pid("<0.9999.0>")]},
     {erlang, monitor, [process, self(), [bad]]}, {ets, info, [a_b_c_q]}, {ets, info, [1, size]}, {ets, info, [1.0]},
     {erlang, monitor, [time_offset, clock_service]}, {erlang, monitor, [time_offset, x]},
     {erlang, garbage_collect, [self(), [{async, req}]]},
     {os, getenv, [1]}, {os, putenv, [1, "x"]}, {erlang, garbage_collect, [a]}, {erlang, check_process_code, [a, b]}
    ],
    [io:format("~w:~w/~w ~p~n", [M, F, length(A), info(M, F, A)]) || {M, F, A} <- Calls],
    receive {garbage_collect, req, R} -> io:format("gc async: ~p~n", [R]) after 1000 -> io:format("no gc reply~n") end.
info(M, F, A) ->
    try apply(M, F, A) of
        V when is_reference(V) -> {returned, a_reference};
        V -> {returned, V}
    catch
        C:R:St ->
            case St of
                [{_, _, _, Loc} | _] -> {C, R, proplists:get_value(error_info, Loc)};
                _ -> {C, R}
            end
    end.
