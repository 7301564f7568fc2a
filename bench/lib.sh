# Shared by bench/run and bench/series (sourced; OUT, N and the environment set by the caller).
# Runs Mod:run/0 W times to warm up (jbeam compiles hot code at run time, erl at load time),
# then N times; prints the best time in microseconds.
# A long workload may cap both with -bench_runs(MaxWarmup, MaxRuns) (e.g. the seconds-long TCP ones).
# WARMUP_MS=T (steady-state figures): after those calls, keep calling run/0 until T ms of warm-up
# have passed, on both VMs alike (a JVM needs a second or two before C2 has compiled the hot paths;
# erl compiles at load time). The default, 0, adds nothing.
W=${WARMUP:-5}
WMS=${WARMUP_MS:-0}
EXPR="[M] = init:get_plain_arguments(), Mod = list_to_atom(M), \
{W, N} = case lists:keyfind(bench_runs, 1, Mod:module_info(attributes)) of \
{_, [MW, MN]} -> {min(MW, $W), min(MN, $N)}; _ -> {$W, $N} end, \
T0 = erlang:monotonic_time(millisecond), \
[Mod:run() || _ <- lists:seq(1, W)], \
Warm = fun Loop() -> case erlang:monotonic_time(millisecond) - T0 < $WMS of true -> Mod:run(), Loop(); false -> ok end end, \
Warm(), \
T = lists:min([element(1, timer:tc(Mod, run, [])) || _ <- lists:seq(1, N)]), \
io:format(\"~p~n\", [T]), halt()."
# A workload marked `%% peer: true` runs on a named node against a peer node of the same kind
# (erl with erl, jbeam with jbeam), whose name it gets in BENCH_PEER (see bench/erl/bench_peer.erl).
with_peer() {
  local vm=$1 m=$2 id="$$_$RANDOM" host; host=$(cat /proc/sys/kernel/hostname)
  "$vm" -sname "bpeer$id" -setcookie jbeambench -noshell -pa "$OUT" >/dev/null 2>&1 &
  local pp=$!
  BENCH_PEER="bpeer$id@$host" "$vm" -sname "bmain$id" -setcookie jbeambench -noshell -pa "$OUT" -eval "$EXPR" -extra "$m" || echo FAIL
  kill "$pp" 2>/dev/null; wait "$pp" 2>/dev/null || true
}

# The CPU time the hypervisor gave to other guests ("steal", /proc/stat) between two samples of
# cpu_ticks, as a share of all CPU time: on a shared host it moves wall times as much as the load.
cpu_ticks() { awk '/^cpu / {t = 0; for (i = 2; i <= 9; i++) t += $i; print t, $9}' /proc/stat; }
steal_pct() {
  local a=($1) b=($2)
  awk -v t="$(( b[0] - a[0] ))" -v s="$(( b[1] - a[1] ))" 'BEGIN { printf "%.0f", (t > 0 ? 100 * s / t : 0) }'
}
