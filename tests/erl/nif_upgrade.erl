-module(nif_upgrade).
%% The stub module of native/test_nif_upgrade.c (load/upgrade/unload callbacks); nif_reload
%% drives it. The load info comes from persistent_term, so a reload can ask for a veto; load_nif's
%% result goes back there (on_load failures only say on_load_failure).
-on_load(init/0).
-export([gen/0, events/0, new_obj/0, dtor_count/0, hold/2, load_again/0]).

init() ->
    R = erlang:load_nif(lib(), persistent_term:get(nif_upgrade_info, ok)),
    persistent_term:put(nif_upgrade_result, R),
    R.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "..", "native", "native", "libjbeam_upgrade_nif"]).

%% load_nif again from this (current) version, which has the library already: refused.
load_again() -> erlang:load_nif(lib(), ok).

gen() -> erlang:nif_error(not_loaded).
events() -> erlang:nif_error(not_loaded).
new_obj() -> erlang:nif_error(not_loaded).
dtor_count() -> erlang:nif_error(not_loaded).
hold(_, _) -> erlang:nif_error(not_loaded).
