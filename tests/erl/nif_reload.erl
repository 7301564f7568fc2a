-module(nif_reload).
%% Reloading a module whose old code has a NIF library loaded: the upgrade callback (with the old
%% instance's priv_data), a vetoed upgrade, the unload callback when old code is purged, and the
%% error OTP gives for a library without an upgrade callback (jbeam_test_nif).
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

main() ->
    logger:set_primary_config(level, none),   % on_load failures are logged; only results are compared
    p(code:ensure_loaded(nif_upgrade)),
    p({gen, nif_upgrade:gen()}),
    p(nif_upgrade:events()),
    p(nif_upgrade:load_again()),
    p({gen, nif_upgrade:gen()}),
    %% a newer version while the old one has the library: upgrade, old priv_data handed over
    p(code:load_file(nif_upgrade)),
    p({gen, nif_upgrade:gen()}),
    p(nif_upgrade:events()),
    %% purging the old code runs its unload callback (the library's unload, with its priv_data)
    p(code:purge(nif_upgrade)),
    p(nif_upgrade:events()),
    %% a vetoed upgrade: {error, {upgrade, ...}} from load_nif, so on_load fails; the current code stays
    persistent_term:put(nif_upgrade_info, veto),
    p(code:load_file(nif_upgrade)),
    p(persistent_term:get(nif_upgrade_result)),
    p(nif_upgrade:events()),
    p({gen, nif_upgrade:gen()}),
    persistent_term:put(nif_upgrade_info, ok),
    p(code:load_file(nif_upgrade)),
    p({gen, nif_upgrade:gen()}),
    p(nif_upgrade:events()),
    p(code:purge(nif_upgrade)),
    p(nif_upgrade:events()),
    %% delete + purge, then load again from scratch: the load callback (not upgrade). erts unmaps
    %% a library no module uses (its static log is gone), jbeam keeps it: only the last event counts.
    p(code:delete(nif_upgrade)),
    p(code:purge(nif_upgrade)),
    p(code:ensure_loaded(nif_upgrade)),
    p({gen, nif_upgrade:gen()}),
    p(lists:last(nif_upgrade:events())),
    %% a library without an upgrade callback cannot be loaded by a newer version
    p(code:ensure_loaded(jbeam_test_nif)),
    p(code:load_file(jbeam_test_nif)),
    p(jbeam_test_nif:add(1, 2)),
    p(code:is_loaded(jbeam_test_nif) =/= false),
    p(code:purge(jbeam_test_nif)),
    p(code:load_file(jbeam_test_nif)),
    p(jbeam_test_nif:add(3, 4)),
    %% load_nif again from the module's current code (not its on_load)
    p(catch erlang:load_nif("/nonexistent/lib", 0)),
    ok.
