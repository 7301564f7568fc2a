/* System services: memory, threads and locks (thin pthread wrappers), time, system info,
 * dynamic loading, processes (self/send through a Java callback), scheduling. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "nif_internal.h"

/* ---- memory ---- */
void *enif_alloc(size_t size) { return malloc(size); }
void *enif_realloc(void *ptr, size_t size) { return realloc(ptr, size); }
void enif_free(void *ptr) { free(ptr); }

/* ---- locks ---- */
struct ErlDrvMutex_ { pthread_mutex_t m; char *name; };
struct ErlDrvCond_ { pthread_cond_t c; char *name; };
struct ErlDrvRWLock_ { pthread_rwlock_t l; char *name; };
static char *dupname(const char *n) { return n ? strdup(n) : NULL; }

ErlNifMutex *enif_mutex_create(char *name) { ErlNifMutex *m = malloc(sizeof *m); pthread_mutex_init(&m->m, NULL); m->name = dupname(name); return m; }
void enif_mutex_destroy(ErlNifMutex *m) { if (!m) return; pthread_mutex_destroy(&m->m); free(m->name); free(m); }
int enif_mutex_trylock(ErlNifMutex *m) { return pthread_mutex_trylock(&m->m); }
void enif_mutex_lock(ErlNifMutex *m) { pthread_mutex_lock(&m->m); }
void enif_mutex_unlock(ErlNifMutex *m) { pthread_mutex_unlock(&m->m); }
char *enif_mutex_name(ErlNifMutex *m) { return m->name; }
ErlNifCond *enif_cond_create(char *name) { ErlNifCond *c = malloc(sizeof *c); pthread_cond_init(&c->c, NULL); c->name = dupname(name); return c; }
void enif_cond_destroy(ErlNifCond *c) { if (!c) return; pthread_cond_destroy(&c->c); free(c->name); free(c); }
void enif_cond_signal(ErlNifCond *c) { pthread_cond_signal(&c->c); }
void enif_cond_broadcast(ErlNifCond *c) { pthread_cond_broadcast(&c->c); }
void enif_cond_wait(ErlNifCond *c, ErlNifMutex *m) { pthread_cond_wait(&c->c, &m->m); }
char *enif_cond_name(ErlNifCond *c) { return c->name; }
ErlNifRWLock *enif_rwlock_create(char *name) { ErlNifRWLock *l = malloc(sizeof *l); pthread_rwlock_init(&l->l, NULL); l->name = dupname(name); return l; }
void enif_rwlock_destroy(ErlNifRWLock *l) { if (!l) return; pthread_rwlock_destroy(&l->l); free(l->name); free(l); }
int enif_rwlock_tryrlock(ErlNifRWLock *l) { return pthread_rwlock_tryrdlock(&l->l); }
void enif_rwlock_rlock(ErlNifRWLock *l) { pthread_rwlock_rdlock(&l->l); }
void enif_rwlock_runlock(ErlNifRWLock *l) { pthread_rwlock_unlock(&l->l); }
int enif_rwlock_tryrwlock(ErlNifRWLock *l) { return pthread_rwlock_trywrlock(&l->l); }
void enif_rwlock_rwlock(ErlNifRWLock *l) { pthread_rwlock_wrlock(&l->l); }
void enif_rwlock_rwunlock(ErlNifRWLock *l) { pthread_rwlock_unlock(&l->l); }
char *enif_rwlock_name(ErlNifRWLock *l) { return l->name; }

/* ---- thread-specific data ---- */
int enif_tsd_key_create(char *name, ErlNifTSDKey *key) {
    (void)name; pthread_key_t k;
    if (pthread_key_create(&k, NULL)) return -1;
    *key = (int)k;
    return 0;
}
void enif_tsd_key_destroy(ErlNifTSDKey key) { pthread_key_delete((pthread_key_t)key); }
void enif_tsd_set(ErlNifTSDKey key, void *data) { pthread_setspecific((pthread_key_t)key, data); }
void *enif_tsd_get(ErlNifTSDKey key) { return pthread_getspecific((pthread_key_t)key); }

/* ---- threads: ErlNifTid is the pthread_t ---- */
ErlNifThreadOpts *enif_thread_opts_create(char *name) { (void)name; ErlNifThreadOpts *o = malloc(sizeof *o); o->suggested_stack_size = -1; return o; }
void enif_thread_opts_destroy(ErlNifThreadOpts *o) { free(o); }
int enif_thread_create(char *name, ErlNifTid *tid, void *(*func)(void *), void *args, ErlNifThreadOpts *opts) {
    (void)name;
    pthread_attr_t attr; pthread_attr_init(&attr);
    if (opts && opts->suggested_stack_size > 0) pthread_attr_setstacksize(&attr, (size_t)opts->suggested_stack_size * 1024);
    pthread_t t;
    int r = pthread_create(&t, &attr, func, args);
    pthread_attr_destroy(&attr);
    if (r == 0) *tid = (ErlNifTid)t;
    return r;
}
ErlNifTid enif_thread_self(void) { return (ErlNifTid)pthread_self(); }
int enif_equal_tids(ErlNifTid a, ErlNifTid b) { return pthread_equal((pthread_t)a, (pthread_t)b); }
void enif_thread_exit(void *resp) { pthread_exit(resp); }
int enif_thread_join(ErlNifTid tid, void **respp) { return pthread_join((pthread_t)tid, respp); }
char *enif_thread_name(ErlNifTid tid) { (void)tid; return NULL; }
extern __thread int jb_thread_mode __attribute__((tls_model("initial-exec")));
int enif_thread_type(void) {
    switch (jb_thread_mode) {
    case 1: return ERL_NIF_THR_NORMAL_SCHEDULER;
    case 1 + ERL_NIF_DIRTY_JOB_CPU_BOUND: return ERL_NIF_THR_DIRTY_CPU_SCHEDULER;
    case 1 + ERL_NIF_DIRTY_JOB_IO_BOUND: return ERL_NIF_THR_DIRTY_IO_SCHEDULER;
    }
    return ERL_NIF_THR_UNDEFINED;
}

/* ---- system info ---- */
void enif_system_info(ErlNifSysInfo *sip, size_t si_size) {
    ErlNifSysInfo si;
    memset(&si, 0, sizeof si);
    si.driver_major_version = 3; si.driver_minor_version = 3;
    si.erts_version = "13.2"; si.otp_release = "25";
    si.thread_support = 1; si.smp_support = 1; si.async_threads = 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    si.scheduler_threads = n > 0 ? (int)n : 1;
    si.nif_major_version = ERL_NIF_MAJOR_VERSION; si.nif_minor_version = ERL_NIF_MINOR_VERSION;
    si.dirty_scheduler_support = 1;
    memcpy(sip, &si, si_size < sizeof si ? si_size : sizeof si);
}
int enif_getenv(const char *key, char *value, size_t *value_size) {
    const char *v = getenv(key);
    if (!v) return -1;
    size_t n = strlen(v);
    if (n + 1 > *value_size) { *value_size = n + 1; return 1; }
    memcpy(value, v, n + 1); *value_size = n;
    return 0;
}

/* ---- time (ERL_NIF_SEC=0 .. NSEC=3) ---- */
static int64_t per_sec(ErlNifTimeUnit u) {
    switch ((int)u) { case ERL_NIF_SEC: return 1; case ERL_NIF_MSEC: return 1000; case ERL_NIF_USEC: return 1000000; case ERL_NIF_NSEC: return 1000000000; }
    return 0;
}
static int64_t now_ns(clockid_t clk) { struct timespec ts; clock_gettime(clk, &ts); return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec; }
ErlNifTime enif_convert_time_unit(ErlNifTime t, ErlNifTimeUnit from, ErlNifTimeUnit to) {
    int64_t f = per_sec(from), g = per_sec(to);
    if (!f || !g) return ERL_NIF_TIME_ERROR;
    if (g >= f) return t * (g / f);
    int64_t d = f / g;   /* floor division, as erlang:convert_time_unit */
    return t >= 0 ? t / d : -((-t + d - 1) / d);
}
ErlNifTime enif_monotonic_time(ErlNifTimeUnit u) {
    if (!per_sec(u)) return ERL_NIF_TIME_ERROR;
    return enif_convert_time_unit(now_ns(CLOCK_MONOTONIC), ERL_NIF_NSEC, u);
}
ErlNifTime enif_time_offset(ErlNifTimeUnit u) {
    if (!per_sec(u)) return ERL_NIF_TIME_ERROR;
    return enif_convert_time_unit(now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC), ERL_NIF_NSEC, u);
}
ERL_NIF_TERM enif_now_time(ErlNifEnv *env) {
    int64_t us = now_ns(CLOCK_REALTIME) / 1000;
    return enif_make_tuple(env, 3, jb_make_small(us / 1000000000000LL), jb_make_small((us / 1000000) % 1000000), jb_make_small(us % 1000000));
}
ERL_NIF_TERM enif_cpu_time(ErlNifEnv *env) {
    int64_t us = now_ns(CLOCK_PROCESS_CPUTIME_ID) / 1000;
    return enif_make_tuple(env, 3, jb_make_small(us / 1000000000000LL), jb_make_small((us / 1000000) % 1000000), jb_make_small(us % 1000000));
}
static int64_t unique_counter;
ERL_NIF_TERM enif_make_unique_integer(ErlNifEnv *env, ErlNifUniqueInteger props) {
    int64_t v = __atomic_add_fetch(&unique_counter, 1, __ATOMIC_SEQ_CST);
    return jb_make_i64(env, (props & ERL_NIF_UNIQUE_POSITIVE) ? v : v - 576460752303423489LL);
}

/* ---- dynamic loading ---- */
void *enif_dlopen(const char *lib, void (*err_handler)(void *, const char *), void *err_arg) {
    /* like erts_sys_ddll_open: the name comes without the extension, ".so" is appended */
    size_t n = strlen(lib);
    char *full = malloc(n + 4);
    memcpy(full, lib, n); memcpy(full + n, ".so", 4);
    void *h = dlopen(full, RTLD_NOW);
    free(full);
    if (!h) h = dlopen(lib, RTLD_NOW);
    if (!h && err_handler) err_handler(err_arg, dlerror());
    return h;
}
void *enif_dlsym(void *handle, const char *symbol, void (*err_handler)(void *, const char *), void *err_arg) {
    dlerror();
    void *p = dlsym(handle, symbol);
    const char *e = dlerror();
    if (e && err_handler) err_handler(err_arg, e);
    return e ? NULL : p;
}

/* ---- processes ---- */
ErlNifPid *enif_self(ErlNifEnv *env, ErlNifPid *pid) {
    if (!env || !env->self) return NULL;
    pid->pid = env->self;
    return pid;
}
int enif_get_local_pid(ErlNifEnv *env, ERL_NIF_TERM t, ErlNifPid *pid) {
    (void)env;
    if (jb_opaque_kind(t) != JB_OPQ_PID) return 0;
    pid->pid = t;
    return 1;
}
int enif_get_local_port(ErlNifEnv *env, ERL_NIF_TERM t, ErlNifPort *port) {
    (void)env;
    if (jb_opaque_kind(t) != JB_OPQ_PORT) return 0;
    port->port_id = t;
    return 1;
}
void enif_set_pid_undefined(ErlNifPid *pid) { pid->pid = jb_atom("undefined"); }
int enif_is_pid_undefined(const ErlNifPid *pid) { return pid->pid == jb_atom("undefined"); }
int enif_is_current_process_alive(ErlNifEnv *env) { return env && env->self != 0; }
/* Asks Java (the port_alive callback takes a pid's opaque id too): a dead process's pid stays a pid. */
int enif_is_process_alive(ErlNifEnv *env, ErlNifPid *pid) {
    (void)env;
    return jb_opaque_kind(pid->pid) == JB_OPQ_PID && jb_cb.port_alive && jb_cb.port_alive(jb_opaque_id(pid->pid));
}
int enif_is_port_alive(ErlNifEnv *env, ErlNifPort *port) {
    (void)env;
    return jb_opaque_kind(port->port_id) == JB_OPQ_PORT && jb_cb.port_alive && jb_cb.port_alive(jb_opaque_id(port->port_id));
}
int enif_whereis_pid(ErlNifEnv *env, ERL_NIF_TERM name, ErlNifPid *pid) {
    uint64_t id;
    if (!jb_is_atom(name) || !jb_cb.whereis || jb_cb.whereis(jb_atom_index(name), &id) != 1) return 0;
    pid->pid = jb_make_opaque(JB_OPQ_PID, id);
    return 1;
}
int enif_whereis_port(ErlNifEnv *env, ERL_NIF_TERM name, ErlNifPort *port) {
    uint64_t id;
    (void)env;
    if (!jb_is_atom(name) || !jb_cb.whereis || jb_cb.whereis(jb_atom_index(name), &id) != 2) return 0;
    port->port_id = jb_make_opaque(JB_OPQ_PORT, id);
    return 1;
}
/* As erlang:port_command(Port, Msg) from the calling process (env's; none = the port's owner):
 * 1 when the port took the data, 0 when it is not open or msg is not iodata. */
int enif_port_command(ErlNifEnv *env, const ErlNifPort *to, ErlNifEnv *msg_env, ERL_NIF_TERM msg) {
    (void)msg_env;
    if (jb_opaque_kind(to->port_id) != JB_OPQ_PORT || !jb_cb.port_command) return 0;
    ErlNifEnv tmp; memset(&tmp, 0, sizeof tmp);
    uint64_t self = env && env->self ? jb_opaque_id(env->self) : 0;
    int ok = jb_serialize(&tmp, msg) && jb_cb.port_command(jb_opaque_id(to->port_id), self, tmp.out, tmp.outlen);
    free(tmp.out);
    return ok;
}

int enif_send(ErlNifEnv *env, const ErlNifPid *to, ErlNifEnv *msg_env, ERL_NIF_TERM msg) {
    (void)env;
    if (jb_opaque_kind(to->pid) != JB_OPQ_PID || !jb_cb.send) return 0;
    ErlNifEnv tmp; memset(&tmp, 0, sizeof tmp);
    int ok = jb_serialize(&tmp, msg) && jb_cb.send(jb_opaque_id(to->pid), tmp.out, tmp.outlen);
    free(tmp.out);
    if (msg_env) enif_clear_env(msg_env);
    return ok;
}

ERL_NIF_TERM enif_make_ref(ErlNifEnv *env) {
    if (!jb_cb.make_ref) return enif_make_badarg(env);
    return jb_make_opaque(JB_OPQ_REF, jb_cb.make_ref());
}

/* ---- scheduling: enif_schedule_nif is run by jbeam_call's loop when the NIF returns, on this
 * thread when the flags match its kind, else after Java moved the call (nif_codec.c) ---- */
long jb_dirty_jobs;   /* how many scheduled calls asked for a dirty scheduler */
ERL_NIF_TERM enif_schedule_nif(ErlNifEnv *env, const char *name, int flags,
                               ERL_NIF_TERM (*fp)(ErlNifEnv *, int, const ERL_NIF_TERM[]), int argc, const ERL_NIF_TERM argv[]) {
    (void)name;
    if (flags != 0 && flags != ERL_NIF_DIRTY_JOB_CPU_BOUND && flags != ERL_NIF_DIRTY_JOB_IO_BOUND) return enif_make_badarg(env);
    if (flags) __atomic_add_fetch(&jb_dirty_jobs, 1, __ATOMIC_RELAXED);
    ERL_NIF_TERM *a = jb_alloc(env, (size_t)(argc ? argc : 1) * sizeof(ERL_NIF_TERM));
    if (argc) memcpy(a, argv, (size_t)argc * sizeof *a);
    env->sched_fp = fp; env->sched_argc = argc; env->sched_argv = a; env->sched_flags = flags;
    return JB_SCHEDULED;
}
int enif_consume_timeslice(ErlNifEnv *env, int percent) { (void)env; (void)percent; return 0; }

ErlNifUInt64 enif_hash(ErlNifHash type, ERL_NIF_TERM term, ErlNifUInt64 salt) {
    if (type == ERL_NIF_PHASH2) {   /* erlang:phash2/1 exactly (salt ignored, as erts) */
        if (!jb_cb.phash2) return 0;
        ErlNifEnv tmp; memset(&tmp, 0, sizeof tmp);
        uint64_t h = jb_serialize(&tmp, term) ? jb_cb.phash2(tmp.out, tmp.outlen) : 0;
        free(tmp.out);
        return h;
    }
    /* ERL_NIF_INTERNAL_HASH (values unspecified by erts, stable within this VM): FNV-1a over
     * the printed term and the salt */
    char buf[1024];
    int n = jb_print(buf, sizeof buf, term);
    uint64_t h = 1469598103934665603ULL ^ salt;
    for (int i = 0; i < n && i < (int)sizeof buf - 1; i++) { h ^= (unsigned char)buf[i]; h *= 1099511628211ULL; }
    return h;
}
