/* A test NIF library for jbeam's erl_nif layer (module jbeam_test_nif), written against OTP's
 * erl_nif.h like any third-party NIF: every enif_* symbol is resolved when it is loaded. */
#include <limits.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include "erl_nif.h"

typedef struct { int loads; long value; } priv_t;
typedef struct { long value; } counter_res;
static ErlNifResourceType *counter_type;
static volatile long dtors_run;

static void counter_dtor(ErlNifEnv *env, void *obj) {
    (void)env;
    __atomic_add_fetch(&dtors_run, ((counter_res *)obj)->value == -1 ? 0 : 1, __ATOMIC_SEQ_CST);
}

typedef struct { ErlNifPid notify; ErlNifMonitor mon; } watcher_res;
static ErlNifResourceType *watcher_type;
static void watcher_dtor(ErlNifEnv *env, void *obj);
static void watcher_down(ErlNifEnv *env, void *obj, ErlNifPid *pid, ErlNifMonitor *mon);
typedef struct { int rfd, wfd; } pipe_res;
static ErlNifResourceType *pipe_type;
static volatile long pipe_stop_count;
static void pipe_stop_cb(ErlNifEnv *env, void *obj, ErlNifEvent e, int direct) {
    pipe_res *p = obj;
    if (p->rfd >= 0) close(p->rfd);
    if (p->wfd >= 0) close(p->wfd);
    p->rfd = p->wfd = -1;
    __atomic_add_fetch(&pipe_stop_count, 1, __ATOMIC_SEQ_CST);
}

/* A resource type with a dyncall callback (enif_dynamic_resource_call): adds *call_data to the
 * resource's value and hands back the sum. */
typedef struct { long value; } dyn_res;
static ErlNifResourceType *dyn_type;
static void dyn_callback(ErlNifEnv *env, void *obj, void *call_data) {
    (void)env;
    dyn_res *d = obj;
    d->value += *(long *)call_data;
    *(long *)call_data = d->value;
}

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM info) {
    if (enif_is_atom(env, info)) {
        char buf[16];
        if (enif_get_atom(env, info, buf, sizeof buf, ERL_NIF_LATIN1) && strcmp(buf, "fail") == 0) return 7;
    }
    priv_t *p = enif_alloc(sizeof *p);
    p->loads = 1; p->value = 0;
    enif_get_long(env, info, &p->value);
    *priv_data = p;
    counter_type = enif_open_resource_type(env, NULL, "counter", counter_dtor, ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER, NULL);
    ErlNifResourceTypeInit wi = { watcher_dtor, NULL, watcher_down, 0, NULL };
    watcher_type = enif_open_resource_type_x(env, "watcher", &wi, ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER, NULL);
    ErlNifResourceTypeInit pi = { NULL, pipe_stop_cb, NULL, 0, NULL };
    pipe_type = enif_open_resource_type_x(env, "pipe", &pi, ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER, NULL);
    ErlNifResourceTypeInit di = { NULL, NULL, NULL, 4, dyn_callback };
    dyn_type = enif_init_resource_type(env, "dyn", &di, ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER, NULL);
    return counter_type && watcher_type && pipe_type && dyn_type ? 0 : 1;
}
static void unload(ErlNifEnv *env, void *priv) { (void)env; enif_free(priv); }

#define NIF(name) static ERL_NIF_TERM name(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
#define ATOM(s) enif_make_atom(env, s)

NIF(echo) { return argv[0]; }
NIF(priv) { priv_t *p = enif_priv_data(env); return enif_make_long(env, p->value); }

NIF(ints) {
    return enif_make_tuple(env, 9, enif_make_int(env, -5), enif_make_uint(env, 7u), enif_make_long(env, LONG_MIN),
                           enif_make_ulong(env, ULONG_MAX), enif_make_int64(env, INT64_MIN), enif_make_uint64(env, UINT64_MAX),
                           enif_make_int64(env, (int64_t)1 << 61), enif_make_int64(env, -((int64_t)1 << 61) - 1),
                           enif_make_int(env, INT_MIN));
}
NIF(get_ints) {
    int i; unsigned u; long l; unsigned long ul; ErlNifSInt64 i64; ErlNifUInt64 u64;
    ERL_NIF_TERM f = ATOM("false");
    return enif_make_tuple(env, 6,
        enif_get_int(env, argv[0], &i) ? enif_make_int(env, i) : f,
        enif_get_uint(env, argv[0], &u) ? enif_make_uint(env, u) : f,
        enif_get_long(env, argv[0], &l) ? enif_make_long(env, l) : f,
        enif_get_ulong(env, argv[0], &ul) ? enif_make_ulong(env, ul) : f,
        enif_get_int64(env, argv[0], &i64) ? enif_make_int64(env, i64) : f,
        enif_get_uint64(env, argv[0], &u64) ? enif_make_uint64(env, u64) : f);
}
NIF(double_it) {
    double d;
    if (!enif_get_double(env, argv[0], &d)) return enif_make_badarg(env);
    return enif_make_double(env, d * 2);
}
NIF(atom_info) {   /* {Name as string, Length} */
    char buf[256]; unsigned len;
    if (!enif_get_atom(env, argv[0], buf, sizeof buf, ERL_NIF_LATIN1) || !enif_get_atom_length(env, argv[0], &len, ERL_NIF_LATIN1))
        return enif_make_badarg(env);
    return enif_make_tuple2(env, enif_make_string(env, buf, ERL_NIF_LATIN1), enif_make_uint(env, len));
}
NIF(existing_atom) {   /* binary -> {ok, Atom} | error */
    ErlNifBinary b; ERL_NIF_TERM a;
    if (!enif_inspect_binary(env, argv[0], &b)) return enif_make_badarg(env);
    if (!enif_make_existing_atom_len(env, (const char *)b.data, b.size, &a, ERL_NIF_LATIN1)) return ATOM("error");
    return enif_make_tuple2(env, ATOM("ok"), a);
}
NIF(make_atom) {
    ErlNifBinary b;
    if (!enif_inspect_binary(env, argv[0], &b)) return enif_make_badarg(env);
    return enif_make_atom_len(env, (const char *)b.data, b.size);
}
NIF(tuple_info) {   /* {Arity, Elements} */
    int arity; const ERL_NIF_TERM *el;
    if (!enif_get_tuple(env, argv[0], &arity, &el)) return enif_make_badarg(env);
    return enif_make_tuple2(env, enif_make_int(env, arity), enif_make_list_from_array(env, el, (unsigned)arity));
}
NIF(list_info) {   /* {Length, Reversed, Head, ListOf3, IsList, IsEmpty} */
    unsigned len; ERL_NIF_TERM rev, h, t;
    if (!enif_get_list_length(env, argv[0], &len) || !enif_make_reverse_list(env, argv[0], &rev)) return enif_make_badarg(env);
    if (!enif_get_list_cell(env, argv[0], &h, &t)) h = ATOM("none");
    return enif_make_tuple6(env, enif_make_uint(env, len), rev, h,
                            enif_make_list(env, 3, enif_make_int(env, 1), ATOM("two"), enif_make_list_cell(env, enif_make_int(env, 3), enif_make_int(env, 4))),
                            enif_make_int(env, enif_is_list(env, argv[0])), enif_make_int(env, enif_is_empty_list(env, argv[0])));
}
NIF(strings) {   /* {"hello", GotString, Truncated} */
    char buf[64], small[4];
    int n = enif_get_string(env, argv[0], buf, sizeof buf, ERL_NIF_LATIN1);
    int m = enif_get_string(env, argv[0], small, sizeof small, ERL_NIF_LATIN1);
    return enif_make_tuple4(env, enif_make_string(env, "hello", ERL_NIF_LATIN1),
                            n > 0 ? enif_make_string(env, buf, ERL_NIF_LATIN1) : ATOM("false"),
                            enif_make_int(env, n), enif_make_int(env, m));
}
NIF(map_ops) {   /* (Map, Key) -> {Get, Put(Key,new), Update(Key,upd), Remove(Key), Size, Pairs, PairsBackwards} */
    ERL_NIF_TERM v, put, upd, rem, k2, v2, pairs = enif_make_list(env, 0), back = enif_make_list(env, 0);
    size_t size; ErlNifMapIterator it;
    if (!enif_get_map_size(env, argv[0], &size)) return enif_make_badarg(env);
    if (!enif_get_map_value(env, argv[0], argv[1], &v)) v = ATOM("none");
    enif_make_map_put(env, argv[0], argv[1], ATOM("new"), &put);
    if (!enif_make_map_update(env, argv[0], argv[1], ATOM("upd"), &upd)) upd = ATOM("none");
    enif_make_map_remove(env, argv[0], argv[1], &rem);
    enif_map_iterator_create(env, argv[0], &it, ERL_NIF_MAP_ITERATOR_FIRST);
    while (enif_map_iterator_get_pair(env, &it, &k2, &v2)) { pairs = enif_make_list_cell(env, enif_make_tuple2(env, k2, v2), pairs); enif_map_iterator_next(env, &it); }
    enif_map_iterator_destroy(env, &it);
    enif_map_iterator_create(env, argv[0], &it, ERL_NIF_MAP_ITERATOR_LAST);
    while (enif_map_iterator_get_pair(env, &it, &k2, &v2)) { back = enif_make_list_cell(env, k2, back); enif_map_iterator_prev(env, &it); }
    enif_map_iterator_destroy(env, &it);
    enif_make_reverse_list(env, pairs, &pairs);
    return enif_make_tuple7(env, v, put, upd, rem, enif_make_uint64(env, size), pairs, back);
}
NIF(map_from_arrays) {   /* (Keys, Values) -> Map | error */
    ERL_NIF_TERM ks[16], vs[16], h, t, m; unsigned n = 0;
    ERL_NIF_TERM a = argv[0], b = argv[1];
    while (n < 16 && enif_get_list_cell(env, a, &h, &t)) { ks[n] = h; a = t; if (!enif_get_list_cell(env, b, &vs[n], &b)) return enif_make_badarg(env); n++; }
    if (!enif_make_map_from_arrays(env, ks, vs, n, &m)) return ATOM("error");
    return m;
}
NIF(bin_ops) {   /* Bin -> {Size, Reversed, Sub(1, Size-2), Doubled (alloc+realloc), IsBinary} */
    ErlNifBinary b, d; ERL_NIF_TERM rev;
    if (!enif_inspect_binary(env, argv[0], &b) || b.size < 2) return enif_make_badarg(env);
    unsigned char *p = enif_make_new_binary(env, b.size, &rev);
    for (size_t i = 0; i < b.size; i++) p[i] = b.data[b.size - 1 - i];
    enif_alloc_binary(b.size, &d);
    memcpy(d.data, b.data, b.size);
    enif_realloc_binary(&d, 2 * b.size);
    memcpy(d.data + b.size, b.data, b.size);
    ERL_NIF_TERM dbl = enif_make_binary(env, &d);
    ERL_NIF_TERM sub = enif_make_sub_binary(env, dbl, 1, b.size - 2);   /* sub of the refcounted buffer */
    return enif_make_tuple5(env, enif_make_uint64(env, b.size), rev, sub, dbl, enif_make_int(env, enif_is_binary(env, argv[0])));
}
NIF(big_binary) {   /* N -> binary of N bytes i mod 251 (exercises large make_new_binary) */
    unsigned n; ERL_NIF_TERM t;
    if (!enif_get_uint(env, argv[0], &n)) return enif_make_badarg(env);
    unsigned char *p = enif_make_new_binary(env, n, &t);
    for (unsigned i = 0; i < n; i++) p[i] = (unsigned char)(i % 251);
    return t;
}
NIF(iolist_to_bin) {
    ErlNifBinary b;
    if (!enif_inspect_iolist_as_binary(env, argv[0], &b)) return enif_make_badarg(env);
    ERL_NIF_TERM t;
    memcpy(enif_make_new_binary(env, b.size, &t), b.data, b.size);
    return t;
}
NIF(term_type) { return enif_make_int(env, (int)enif_term_type(env, argv[0])); }
NIF(is_tests) {   /* bitmask of is_* tests */
    int m = 0, i = 0;
    m |= enif_is_atom(env, argv[0]) << i++; m |= enif_is_binary(env, argv[0]) << i++; m |= enif_is_ref(env, argv[0]) << i++;
    m |= enif_is_fun(env, argv[0]) << i++; m |= enif_is_pid(env, argv[0]) << i++; m |= enif_is_port(env, argv[0]) << i++;
    m |= enif_is_list(env, argv[0]) << i++; m |= enif_is_tuple(env, argv[0]) << i++; m |= enif_is_map(env, argv[0]) << i++;
    m |= enif_is_number(env, argv[0]) << i++; m |= enif_is_empty_list(env, argv[0]) << i++;
    return enif_make_int(env, m);
}
NIF(compare) {
    int c = enif_compare(argv[0], argv[1]);
    return enif_make_tuple2(env, enif_make_int(env, c < 0 ? -1 : c > 0 ? 1 : 0), enif_make_int(env, enif_is_identical(argv[0], argv[1])));
}
NIF(badarg) { return enif_make_badarg(env); }
NIF(raise) { return enif_raise_exception(env, argv[0]); }
NIF(pending) {   /* raises badarg, then reports the pending reason in a tuple (a NIF may still return normally) */
    ERL_NIF_TERM r;
    enif_make_badarg(env);
    int has = enif_has_pending_exception(env, &r);
    return has ? enif_raise_exception(env, enif_make_tuple2(env, ATOM("pending"), r)) : ATOM("none");
}
NIF(make_res) {
    long v;
    if (!enif_get_long(env, argv[0], &v)) return enif_make_badarg(env);
    counter_res *r = enif_alloc_resource(counter_type, sizeof *r);
    r->value = v;
    ERL_NIF_TERM t = enif_make_resource(env, r);
    enif_release_resource(r);
    return t;
}
NIF(get_res) {
    counter_res *r;
    if (!enif_get_resource(env, argv[0], counter_type, (void **)&r)) return enif_make_badarg(env);
    return enif_make_long(env, r->value);
}
NIF(res_kept_free) {   /* alloc, keep, release twice: the destructor must run exactly once */
    counter_res *r = enif_alloc_resource(counter_type, sizeof *r);
    r->value = 1;
    enif_keep_resource(r);
    enif_release_resource(r);
    long before = dtors_run;
    enif_release_resource(r);
    return enif_make_tuple2(env, enif_make_long(env, before), enif_make_uint64(env, sizeof(counter_res)));
}
NIF(dtor_count) { return enif_make_long(env, dtors_run); }
NIF(format) {
    char buf[256];
    int n = enif_snprintf(buf, sizeof buf, "%T|%d|%s|%5.2f|%lu", argv[0], -42, "str", 3.14159, 123456789UL);
    ERL_NIF_TERM t;
    memcpy(enif_make_new_binary(env, (size_t)n, &t), buf, (size_t)n);
    return t;
}
NIF(sysinfo) {
    ErlNifSysInfo si;
    enif_system_info(&si, sizeof si);
    return enif_make_tuple3(env, enif_make_int(env, si.nif_major_version), enif_make_int(env, si.nif_minor_version),
                            enif_make_int(env, si.dirty_scheduler_support));
}
static ERL_NIF_TERM countdown(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    long n, acc;
    enif_get_long(env, argv[0], &n); enif_get_long(env, argv[1], &acc);
    if (n == 0) return enif_make_tuple2(env, ATOM("done"), enif_make_long(env, acc));
    enif_consume_timeslice(env, 10);
    ERL_NIF_TERM a[2] = { enif_make_long(env, n - 1), enif_make_long(env, acc + n) };
    return enif_schedule_nif(env, "countdown", (n % 2) ? ERL_NIF_DIRTY_JOB_CPU_BOUND : 0, countdown, 2, a);
}
NIF(sched) { ERL_NIF_TERM a[2] = { argv[0], enif_make_int(env, 0) }; return enif_schedule_nif(env, "countdown", 0, countdown, 2, a); }
NIF(self) { ErlNifPid p; return enif_self(env, &p) ? p.pid : ATOM("undefined"); }
NIF(send_self) {   /* sends {hello, Arg} from a separate message env */
    ErlNifPid p;
    if (!enif_self(env, &p)) return ATOM("no_self");
    ErlNifEnv *msg_env = enif_alloc_env();
    ERL_NIF_TERM msg = enif_make_tuple2(msg_env, enif_make_atom(msg_env, "hello"), enif_make_copy(msg_env, argv[0]));
    int ok = enif_send(env, &p, msg_env, msg);
    enif_free_env(msg_env);
    return ok ? ATOM("ok") : ATOM("error");
}
NIF(env_copy) {   /* copies through a process-independent env */
    ErlNifEnv *e2 = enif_alloc_env();
    ERL_NIF_TERM c = enif_make_copy(e2, argv[0]);
    ERL_NIF_TERM back = enif_make_copy(env, c);
    enif_clear_env(e2);
    enif_free_env(e2);
    return back;
}

/* counter is guarded by m, rwcounter by rw (one shared counter under two locks would race) */
typedef struct { ErlNifMutex *m; ErlNifCond *c; ErlNifRWLock *rw; ErlNifTSDKey key; long counter; int ready; long rwcounter; } shared_t;
static void *worker(void *arg) {
    shared_t *s = arg;
    enif_tsd_set(s->key, (void *)0x1234);
    for (int i = 0; i < 1000; i++) { enif_mutex_lock(s->m); s->counter++; enif_mutex_unlock(s->m); }
    enif_rwlock_rwlock(s->rw); s->rwcounter += 1000000; enif_rwlock_rwunlock(s->rw);
    enif_mutex_lock(s->m); s->ready = 1; enif_cond_broadcast(s->c); enif_mutex_unlock(s->m);
    return enif_tsd_get(s->key);
}
NIF(threads) {   /* 4 threads x 1000 increments + rwlock; returns {Counter, TsdFromThread, MainTsd} */
    shared_t s = { enif_mutex_create("m"), enif_cond_create("c"), enif_rwlock_create("rw"), 0, 0, 0, 0 };
    enif_tsd_key_create("k", &s.key);
    enif_tsd_set(s.key, (void *)0x99);
    ErlNifTid tids[4]; void *res = NULL;
    ErlNifThreadOpts *o = enif_thread_opts_create("o");
    for (int i = 0; i < 4; i++) enif_thread_create("w", &tids[i], worker, &s, o);
    enif_mutex_lock(s.m); while (!s.ready) enif_cond_wait(s.c, s.m); enif_mutex_unlock(s.m);
    for (int i = 0; i < 4; i++) enif_thread_join(tids[i], &res);
    enif_rwlock_rlock(s.rw); long c = s.rwcounter; enif_rwlock_runlock(s.rw);
    enif_mutex_lock(s.m); c += s.counter; enif_mutex_unlock(s.m);
    long mine = (long)enif_tsd_get(s.key);
    enif_thread_opts_destroy(o); enif_tsd_key_destroy(s.key);
    enif_mutex_destroy(s.m); enif_cond_destroy(s.c); enif_rwlock_destroy(s.rw);
    return enif_make_tuple3(env, enif_make_long(env, c), enif_make_long(env, (long)res), enif_make_long(env, mine));
}
NIF(times) {
    ErlNifTime a = enif_monotonic_time(ERL_NIF_NSEC), b = enif_monotonic_time(ERL_NIF_NSEC);
    return enif_make_tuple4(env, enif_make_int(env, b >= a),
                            enif_make_int64(env, enif_convert_time_unit(1500, ERL_NIF_MSEC, ERL_NIF_SEC)),
                            enif_make_int64(env, enif_convert_time_unit(-1500, ERL_NIF_MSEC, ERL_NIF_SEC)),
                            enif_make_int64(env, enif_convert_time_unit(3, ERL_NIF_SEC, ERL_NIF_USEC)));
}
NIF(add) {   /* for measuring call overhead */
    long a, b;
    if (!enif_get_long(env, argv[0], &a) || !enif_get_long(env, argv[1], &b)) return enif_make_badarg(env);
    return enif_make_long(env, a + b);
}


/* ---- dirty scheduling ---- */
static ERL_NIF_TERM type_atom(ErlNifEnv *env) {
    switch (enif_thread_type()) {
    case ERL_NIF_THR_NORMAL_SCHEDULER: return ATOM("normal");
    case ERL_NIF_THR_DIRTY_CPU_SCHEDULER: return ATOM("dirty_cpu");
    case ERL_NIF_THR_DIRTY_IO_SCHEDULER: return ATOM("dirty_io");
    }
    return ATOM("undefined");
}
NIF(thread_kind) { return type_atom(env); }   /* exported three times: plain, CPU-bound, IO-bound */
static int flag_of(ErlNifEnv *env, ERL_NIF_TERM a) {
    char b[16];
    if (!enif_get_atom(env, a, b, sizeof b, ERL_NIF_LATIN1)) return -1;
    return strcmp(b, "cpu") == 0 ? ERL_NIF_DIRTY_JOB_CPU_BOUND : strcmp(b, "io") == 0 ? ERL_NIF_DIRTY_JOB_IO_BOUND
         : strcmp(b, "normal") == 0 ? 0 : -1;
}
static ERL_NIF_TERM hop_step(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    /* argv: [Flags left, Acc]: records where this step runs, schedules the next one */
    ERL_NIF_TERM acc = enif_make_list_cell(env, type_atom(env), argv[1]), h, t, out;
    if (!enif_get_list_cell(env, argv[0], &h, &t)) { enif_make_reverse_list(env, acc, &out); return out; }
    int f = flag_of(env, h);
    if (f < 0) return enif_make_badarg(env);
    ERL_NIF_TERM a[2] = { t, acc };
    return enif_schedule_nif(env, "hop_step", f, hop_step, 2, a);
}
NIF(hop) { ERL_NIF_TERM a[2] = { argv[0], enif_make_list(env, 0) }; return hop_step(env, 2, a); }
static ERL_NIF_TERM raise_step(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) { return enif_raise_exception(env, argv[0]); }
NIF(hop_raise) { return enif_schedule_nif(env, "raise_step", ERL_NIF_DIRTY_JOB_IO_BOUND, raise_step, 1, argv); }
NIF(dirty_badarg) { return enif_make_badarg(env); }
NIF(dirty_sleep) { long ms; if (!enif_get_long(env, argv[0], &ms)) return enif_make_badarg(env); usleep(ms * 1000); return type_atom(env); }
NIF(dirty_send) {   /* enif_send from a dirty thread to the caller; returns the caller's pid */
    ErlNifPid p;
    if (!enif_self(env, &p)) return ATOM("no_self");
    ErlNifEnv *me = enif_alloc_env();
    int ok = enif_send(env, &p, me, enif_make_tuple2(me, ATOM("dirty_msg"), enif_make_copy(me, argv[0])));
    enif_free_env(me);
    return ok ? enif_make_pid(env, &p) : ATOM("send_failed");
}
/* A gate a dirty NIF waits on until a normal NIF called by another process opens it: with one
 * normal scheduler this only finishes if the waiter does not hold that scheduler. */
static pthread_mutex_t gate_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_c = PTHREAD_COND_INITIALIZER;
static int gate_is_open;
NIF(gate_wait) {
    long ms; if (!enif_get_long(env, argv[0], &ms)) return enif_make_badarg(env);
    struct timespec until; clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000; until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
    int timed_out = 0;
    pthread_mutex_lock(&gate_m);
    while (!gate_is_open && !timed_out) timed_out = pthread_cond_timedwait(&gate_c, &gate_m, &until) != 0;
    int opened = gate_is_open;
    gate_is_open = 0;
    pthread_mutex_unlock(&gate_m);
    return opened ? ATOM("opened") : ATOM("timeout");
}
NIF(gate_open) { pthread_mutex_lock(&gate_m); gate_is_open = 1; pthread_cond_broadcast(&gate_c); pthread_mutex_unlock(&gate_m); return ATOM("ok"); }

/* ---- process monitors from resources ---- */
static volatile long watcher_dtors;
static void watcher_dtor(ErlNifEnv *env, void *obj) { __atomic_add_fetch(&watcher_dtors, 1, __ATOMIC_SEQ_CST); }
static void watcher_down(ErlNifEnv *env, void *obj, ErlNifPid *pid, ErlNifMonitor *mon) {
    watcher_res *w = obj;
    ErlNifEnv *me = enif_alloc_env();
    ERL_NIF_TERM msg = enif_make_tuple3(me, enif_make_atom(me, "nif_down"), enif_make_pid(me, pid),
                                        enif_make_atom(me, enif_compare_monitors(mon, &w->mon) == 0 ? "same_monitor" : "other_monitor"));
    enif_send(NULL, &w->notify, me, msg);
    enif_free_env(me);
}
NIF(watch) {   /* {Resource, enif_monitor_process result} for monitoring Pid, DOWN notices go to the caller */
    ErlNifPid target;
    if (!enif_get_local_pid(env, argv[0], &target)) return enif_make_badarg(env);
    watcher_res *w = enif_alloc_resource(watcher_type, sizeof *w);
    enif_self(env, &w->notify);
    int rc = enif_monitor_process(env, w, &target, &w->mon);
    ERL_NIF_TERM r = enif_make_resource(env, w);
    enif_release_resource(w);
    return enif_make_tuple2(env, r, enif_make_int(env, rc));
}
NIF(unwatch) {
    watcher_res *w;
    if (!enif_get_resource(env, argv[0], watcher_type, (void **)&w)) return enif_make_badarg(env);
    return enif_make_int(env, enif_demonitor_process(env, w, &w->mon));
}
NIF(watch_term) {   /* {MonitorTerm, MonitorTerm again} for the resource's monitor */
    watcher_res *w;
    if (!enif_get_resource(env, argv[0], watcher_type, (void **)&w)) return enif_make_badarg(env);
    return enif_make_tuple2(env, enif_make_monitor_term(env, &w->mon), enif_make_monitor_term(env, &w->mon));
}
NIF(same_monitor) {
    watcher_res *a, *b;
    if (!enif_get_resource(env, argv[0], watcher_type, (void **)&a) || !enif_get_resource(env, argv[1], watcher_type, (void **)&b))
        return enif_make_badarg(env);
    return enif_make_int(env, enif_compare_monitors(&a->mon, &b->mon));
}
NIF(counter_monitor) {   /* a type without a down callback cannot monitor: OTP returns < 0 */
    ErlNifPid target;
    if (!enif_get_local_pid(env, argv[0], &target)) return enif_make_badarg(env);
    counter_res *r = enif_alloc_resource(counter_type, sizeof *r);
    r->value = -1;
    ErlNifMonitor m;
    int rc = enif_monitor_process(env, r, &target, &m);
    enif_release_resource(r);
    return enif_make_atom(env, rc < 0 ? "negative" : rc == 0 ? "zero" : "positive");
}
NIF(watcher_dtor_count) { return enif_make_long(env, watcher_dtors); }


/* ---- external term format, whereis ---- */
NIF(t2b) {
    ErlNifBinary b;
    if (!enif_term_to_binary(env, argv[0], &b)) return ATOM("error");
    return enif_make_binary(env, &b);
}
NIF(b2t) {   /* {Term, BytesUsed} or error; argv[1] = safe | unsafe */
    ErlNifBinary b; ERL_NIF_TERM t;
    if (!enif_inspect_binary(env, argv[0], &b)) return enif_make_badarg(env);
    size_t used = enif_binary_to_term(env, b.data, b.size, &t, enif_is_identical(argv[1], ATOM("safe")) ? ERL_NIF_BIN2TERM_SAFE : 0);
    return used ? enif_make_tuple2(env, t, enif_make_uint64(env, used)) : ATOM("error");
}
NIF(whereis_pid) {
    ErlNifPid p;
    return enif_whereis_pid(env, argv[0], &p) ? enif_make_pid(env, &p) : ATOM("undefined");
}

/* ---- I/O queues and iovecs ---- */
static ERL_NIF_TERM peek_all(ErlNifEnv *env, ErlNifIOQueue *q) {
    int n; SysIOVec *v = enif_ioq_peek(q, &n);
    size_t total = 0;
    for (int i = 0; i < n; i++) total += v[i].iov_len;
    ERL_NIF_TERM out; unsigned char *p = enif_make_new_binary(env, total, &out);
    for (int i = 0; i < n; i++) { memcpy(p, v[i].iov_base, v[i].iov_len); p += v[i].iov_len; }
    return enif_make_tuple2(env, enif_make_int(env, n), out);
}
NIF(ioq_test) {   /* argv: [ListOfBinaries, Skip, Deq] */
    ErlNifIOVec vec, *iov = &vec; ERL_NIF_TERM tail; unsigned long skip, deq;
    if (!enif_get_ulong(env, argv[1], &skip) || !enif_get_ulong(env, argv[2], &deq)) return enif_make_badarg(env);
    if (!enif_inspect_iovec(env, 64, argv[0], &tail, &iov)) return ATOM("not_iovec");
    ErlNifIOQueue *q = enif_ioq_create(ERL_NIF_IOQ_NORMAL);
    ERL_NIF_TERM enq = enif_ioq_enqv(q, iov, skip) ? ATOM("true") : ATOM("false");
    int iovcnt = iov->iovcnt; size_t iovsize = iov->size;   /* (enif_free_iovec is only for a NULL env) */
    ErlNifBinary extra; enif_alloc_binary(3, &extra); memcpy(extra.data, "XYZ", 3);
    enif_ioq_enq_binary(q, &extra, 1);
    size_t s1 = enif_ioq_size(q);
    ERL_NIF_TERM all = peek_all(env, q);
    size_t left = 0;
    ERL_NIF_TERM dq = enif_ioq_deq(q, deq, &left) ? ATOM("true") : ATOM("false");
    ERL_NIF_TERM head; size_t hs = 0;
    ERL_NIF_TERM h = enif_ioq_peek_head(env, q, &hs, &head) ? head : ATOM("empty");
    ERL_NIF_TERM rest = peek_all(env, q);
    ERL_NIF_TERM r = enif_make_list(env, 8, enif_make_int(env, iovcnt), enif_make_uint64(env, iovsize), enq,
                                    enif_make_uint64(env, s1), all, dq, enif_make_tuple2(env, h, enif_make_uint64(env, hs)), rest);
    ERL_NIF_TERM res = enif_make_tuple2(env, r, enif_make_uint64(env, enif_ioq_size(q)));
    enif_ioq_destroy(q);
    return res;
}
NIF(iovec_split) {   /* {Count, Size, Tail} for at most argv[1] elements */
    ErlNifIOVec vec, *iov = &vec; ERL_NIF_TERM tail; unsigned long max;
    if (!enif_get_ulong(env, argv[1], &max)) return enif_make_badarg(env);
    if (!enif_inspect_iovec(env, max, argv[0], &tail, &iov)) return ATOM("not_iovec");
    return enif_make_tuple3(env, enif_make_int(env, iov->iovcnt), enif_make_uint64(env, iov->size), tail);
}


/* ---- enif_select on a pipe ---- */
static pipe_res *get_pipe(ErlNifEnv *env, ERL_NIF_TERM t) {
    pipe_res *p;
    return enif_get_resource(env, t, pipe_type, (void **)&p) ? p : NULL;
}
NIF(pipe_open) {
    int fds[2];
    if (pipe(fds) != 0) return ATOM("error");
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    pipe_res *p = enif_alloc_resource(pipe_type, sizeof *p);
    p->rfd = fds[0]; p->wfd = fds[1];
    ERL_NIF_TERM t = enif_make_resource(env, p);
    enif_release_resource(p);
    return t;
}
NIF(pipe_select) {   /* (Res, Ref): select for reading, {select, Res, Ref, ready_input} to the caller */
    pipe_res *p = get_pipe(env, argv[0]);
    if (!p) return enif_make_badarg(env);
    return enif_make_int(env, enif_select(env, p->rfd, ERL_NIF_SELECT_READ, p, NULL, argv[1]));
}
NIF(pipe_select_custom) {   /* (Res, Msg): enif_select_read with a custom message */
    pipe_res *p = get_pipe(env, argv[0]);
    if (!p) return enif_make_badarg(env);
    ErlNifPid self;
    enif_self(env, &self);
    return enif_make_int(env, enif_select_read(env, p->rfd, p, &self, argv[1], NULL));
}
NIF(pipe_cancel) {
    pipe_res *p = get_pipe(env, argv[0]);
    if (!p) return enif_make_badarg(env);
    return enif_make_int(env, enif_select(env, p->rfd, ERL_NIF_SELECT_READ | ERL_NIF_SELECT_CANCEL, p, NULL, ATOM("undefined")));
}
NIF(pipe_write) {
    pipe_res *p = get_pipe(env, argv[0]); ErlNifBinary b;
    if (!p || !enif_inspect_binary(env, argv[1], &b)) return enif_make_badarg(env);
    return enif_make_long(env, (long)write(p->wfd, b.data, b.size));
}
NIF(pipe_read) {
    pipe_res *p = get_pipe(env, argv[0]);
    if (!p) return enif_make_badarg(env);
    unsigned char buf[64];
    ssize_t n = read(p->rfd, buf, sizeof buf);
    if (n < 0) return ATOM("eagain");
    ERL_NIF_TERM t;
    memcpy(enif_make_new_binary(env, (size_t)n, &t), buf, (size_t)n);
    return t;
}
NIF(pipe_stop) {
    pipe_res *p = get_pipe(env, argv[0]);
    if (!p) return enif_make_badarg(env);
    return enif_make_int(env, enif_select(env, p->rfd, ERL_NIF_SELECT_STOP, p, NULL, ATOM("undefined")));
}
NIF(pipe_stops) { return enif_make_long(env, pipe_stop_count); }
NIF(select_bad) {   /* a closed descriptor */
    pipe_res *p = enif_alloc_resource(pipe_type, sizeof *p);
    p->rfd = p->wfd = -1;
    int fds[2]; if (pipe(fds) != 0) return ATOM("error");
    close(fds[0]); close(fds[1]);
    int r = enif_select(env, fds[0], ERL_NIF_SELECT_READ, p, NULL, ATOM("undefined"));
    enif_release_resource(p);
    return enif_make_int(env, r);
}


NIF(hash_phash2) { return enif_make_uint64(env, enif_hash(ERL_NIF_PHASH2, argv[0], 12345)); }
NIF(hash_internal_stable) {   /* the internal hash: equal terms hash equal, salt matters */
    ErlNifUInt64 a = enif_hash(ERL_NIF_INTERNAL_HASH, argv[0], 1), b = enif_hash(ERL_NIF_INTERNAL_HASH, argv[1], 1);
    return enif_make_atom(env, a == b ? "same" : "different");
}


/* A yielding NIF: N steps of ~20 us busy work, each rescheduled with flags 0. */
static ERL_NIF_TERM spin_step(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    long n; enif_get_long(env, argv[0], &n);
    if (n == 0) return ATOM("done");
    ErlNifTime t0 = enif_monotonic_time(ERL_NIF_USEC);
    while (enif_monotonic_time(ERL_NIF_USEC) - t0 < 20) ;
    ERL_NIF_TERM a[1] = { enif_make_long(env, n - 1) };
    return enif_schedule_nif(env, "spin_step", 0, spin_step, 1, a);
}
NIF(yield_spin) { return spin_step(env, 1, argv); }

NIF(block_ms) {   /* blocks the calling normal scheduler N ms without yielding, as a badly behaved NIF would (long_schedule) */
    long ms; if (!enif_get_long(env, argv[0], &ms) || ms < 0 || ms > 10000) return enif_make_badarg(env);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
    return enif_make_atom(env, "ok");
}

NIF(dyn_new) {   /* a dyn resource holding argv[0], and a counter resource (another type) */
    long v; if (!enif_get_long(env, argv[0], &v)) return enif_make_badarg(env);
    dyn_res *d = enif_alloc_resource(dyn_type, sizeof *d);
    d->value = v;
    ERL_NIF_TERM t = enif_make_resource(env, d);
    enif_release_resource(d);
    return t;
}
NIF(dyn_call) {   /* dyn_call(Module, Name, Resource, N): {Status, Value} */
    long n; if (!enif_get_long(env, argv[3], &n)) return enif_make_badarg(env);
    int r = enif_dynamic_resource_call(env, argv[0], argv[1], argv[2], &n);
    return enif_make_tuple2(env, enif_make_int(env, r), enif_make_long(env, n));
}

NIF(port_cmd) {   /* port_cmd(NameOrPort, Msg): {Found, Alive, Sent} via enif_whereis_port/enif_get_local_port */
    ErlNifPort port;
    int found = enif_is_atom(env, argv[0]) ? enif_whereis_port(env, argv[0], &port) : enif_get_local_port(env, argv[0], &port);
    if (!found) return enif_make_tuple3(env, enif_make_int(env, 0), enif_make_int(env, 0), enif_make_int(env, 0));
    int alive = enif_is_port_alive(env, &port);
    ErlNifEnv *me = enif_alloc_env();
    int sent = enif_port_command(env, &port, me, enif_make_copy(me, argv[1]));
    enif_free_env(me);
    return enif_make_tuple3(env, enif_make_int(env, 1), enif_make_int(env, alive), enif_make_int(env, sent));
}

/* test_nif_api.c */
ERL_NIF_TERM jb_test_api(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM jb_test_exc(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ErlNifResourceType *jb_test_counter_type(void) { return counter_type; }

static ErlNifFunc funcs[] = {
    {"echo", 1, echo, 0}, {"priv", 0, priv, 0}, {"ints", 0, ints, 0}, {"get_ints", 1, get_ints, 0},
    {"double_it", 1, double_it, 0}, {"atom_info", 1, atom_info, 0}, {"existing_atom", 1, existing_atom, 0},
    {"make_atom", 1, make_atom, 0}, {"tuple_info", 1, tuple_info, 0}, {"list_info", 1, list_info, 0},
    {"strings", 1, strings, 0}, {"map_ops", 2, map_ops, 0}, {"map_from_arrays", 2, map_from_arrays, 0},
    {"bin_ops", 1, bin_ops, 0}, {"big_binary", 1, big_binary, 0}, {"iolist_to_bin", 1, iolist_to_bin, 0},
    {"term_type", 1, term_type, 0}, {"is_tests", 1, is_tests, 0}, {"compare", 2, compare, 0},
    {"badarg", 0, badarg, 0}, {"raise", 1, raise, 0}, {"pending", 0, pending, 0},
    {"make_res", 1, make_res, 0}, {"get_res", 1, get_res, 0}, {"res_kept_free", 0, res_kept_free, 0},
    {"dtor_count", 0, dtor_count, 0}, {"format", 1, format, 0}, {"sysinfo", 0, sysinfo, 0},
    {"sched", 1, sched, ERL_NIF_DIRTY_JOB_CPU_BOUND}, {"self", 0, self, 0}, {"send_self", 1, send_self, 0},
    {"env_copy", 1, env_copy, 0}, {"threads", 0, threads, 0}, {"times", 0, times, 0}, {"add", 2, add, 0},
    {"thread_kind", 0, thread_kind, 0}, {"dirty_cpu_kind", 0, thread_kind, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"dirty_io_kind", 0, thread_kind, ERL_NIF_DIRTY_JOB_IO_BOUND}, {"hop", 1, hop, 0}, {"hop_raise", 1, hop_raise, 0},
    {"dirty_badarg", 1, dirty_badarg, ERL_NIF_DIRTY_JOB_CPU_BOUND}, {"dirty_sleep", 1, dirty_sleep, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"dirty_send", 1, dirty_send, ERL_NIF_DIRTY_JOB_CPU_BOUND}, {"gate_wait", 1, gate_wait, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"gate_open", 0, gate_open, 0}, {"watch", 1, watch, 0}, {"unwatch", 1, unwatch, 0}, {"watch_term", 1, watch_term, 0},
    {"same_monitor", 2, same_monitor, 0}, {"counter_monitor", 1, counter_monitor, 0},
    {"watcher_dtor_count", 0, watcher_dtor_count, 0}, {"t2b", 1, t2b, 0}, {"b2t", 2, b2t, 0},
    {"whereis_pid", 1, whereis_pid, 0}, {"ioq_test", 3, ioq_test, 0}, {"iovec_split", 2, iovec_split, 0},
    {"pipe_open", 0, pipe_open, 0}, {"pipe_select", 2, pipe_select, 0}, {"pipe_select_custom", 2, pipe_select_custom, 0},
    {"pipe_cancel", 1, pipe_cancel, 0}, {"pipe_write", 2, pipe_write, 0}, {"pipe_read", 1, pipe_read, 0},
    {"pipe_stop", 1, pipe_stop, 0}, {"pipe_stops", 0, pipe_stops, 0}, {"select_bad", 0, select_bad, 0},
    {"hash_phash2", 1, hash_phash2, 0}, {"hash_internal_stable", 2, hash_internal_stable, 0},
    {"yield_spin", 1, yield_spin, 0}, {"dyn_new", 1, dyn_new, 0}, {"dyn_call", 4, dyn_call, 0}, {"port_cmd", 2, port_cmd, 0},
    {"api", 2, jb_test_api, 0}, {"exc", 0, jb_test_exc, 0}, {"block_ms", 1, block_ms, 0},
};

ERL_NIF_INIT(jbeam_test_nif, funcs, load, NULL, NULL, unload)
