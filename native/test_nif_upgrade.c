/* A NIF library with load, upgrade and unload callbacks (module nif_upgrade): each callback
 * appends an event to a log kept in the library (one mapping serves every loaded instance),
 * which events/0 hands back and clears. The load info decides the outcome: the atom veto makes
 * the callback fail with 7, so the error shapes of erlang:load_nif can be compared with erl's.
 * A resource type "obj" (created on load, taken over on upgrade) counts destructor calls, and
 * a native thread can hold an obj after its owner process died (hold/2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <erl_nif.h>

typedef struct { int gen; } priv_t;
static ErlNifMutex *log_m;
static char log_buf[4096];
static size_t log_len;
static ErlNifResourceType *obj_type;
static volatile int dtors;

static void note(const char *fmt, int a, int b) {
    char line[128];
    int n = snprintf(line, sizeof line, fmt, a, b);
    if (log_m) enif_mutex_lock(log_m);
    if (log_len + n + 1 < sizeof log_buf) { memcpy(log_buf + log_len, line, n); log_len += n; log_buf[log_len++] = '\n'; }
    if (log_m) enif_mutex_unlock(log_m);
}

static void obj_dtor(ErlNifEnv *env, void *obj) { (void)env; (void)obj; __sync_add_and_fetch(&dtors, 1); }

static int is_veto(ErlNifEnv *env, ERL_NIF_TERM info) {
    char a[16];
    return enif_get_atom(env, info, a, sizeof a, ERL_NIF_LATIN1) && strcmp(a, "veto") == 0;
}

static int open_obj(ErlNifEnv *env, ErlNifResourceFlags flags) {
    ErlNifResourceFlags tried;
    ErlNifResourceType *t = enif_open_resource_type(env, NULL, "obj", obj_dtor, flags, &tried);
    if (!t) return 0;
    obj_type = t;
    return 1;
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info) {
    if (!log_m) log_m = enif_mutex_create("nif_upgrade_log");
    if (is_veto(env, info)) { note("load vetoed", 0, 0); return 7; }
    if (!open_obj(env, ERL_NIF_RT_CREATE)) return 9;
    priv_t *p = enif_alloc(sizeof *p);
    p->gen = 1;
    *priv = p;
    note("load gen %d", p->gen, 0);
    return 0;
}

static int upgrade(ErlNifEnv *env, void **priv, void **old_priv, ERL_NIF_TERM info) {
    priv_t *old = *old_priv;
    if (is_veto(env, info)) { note("upgrade vetoed (old gen %d)", old ? old->gen : -1, 0); return 7; }
    if (!open_obj(env, ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER)) return 9;
    priv_t *p = enif_alloc(sizeof *p);
    p->gen = (old ? old->gen : 0) + 1;
    *priv = p;
    note("upgrade gen %d from gen %d", p->gen, old ? old->gen : -1);
    return 0;
}

static void unload(ErlNifEnv *env, void *priv) {
    priv_t *p = priv;
    note("unload gen %d", p ? p->gen : -1, 0);
    enif_free(p);
}

static ERL_NIF_TERM gen(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    priv_t *p = enif_priv_data(env);
    return enif_make_int(env, p ? p->gen : -1);
}

static ERL_NIF_TERM events(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM l = enif_make_list(env, 0);
    enif_mutex_lock(log_m);
    size_t end = log_len;
    while (end > 0) {   /* newest first while consing, so the list comes out oldest first */
        size_t start = end - 1;
        while (start > 0 && log_buf[start - 1] != '\n') start--;
        l = enif_make_list_cell(env, enif_make_string_len(env, log_buf + start, end - 1 - start, ERL_NIF_LATIN1), l);
        end = start;
    }
    log_len = 0;
    enif_mutex_unlock(log_m);
    return l;
}

static ERL_NIF_TERM new_obj(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    void *o = enif_alloc_resource(obj_type, 64);
    ERL_NIF_TERM t = enif_make_resource(env, o);
    enif_release_resource(o);
    return t;
}

static ERL_NIF_TERM dtor_count(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, __sync_add_and_fetch(&dtors, 0));
}

/* hold(Obj, Ms): a detached native thread keeps Obj (enif_keep_resource) for Ms milliseconds
 * and then releases it: the destructor may then run on that thread, after its owner died. */
typedef struct { void *obj; int ms; } hold_t;
static void *holder(void *arg) {
    hold_t *h = arg;
    usleep((useconds_t)h->ms * 1000);
    enif_release_resource(h->obj);
    enif_free(h);
    return NULL;
}
static ERL_NIF_TERM hold(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    void *o; int ms;
    if (!enif_get_resource(env, argv[0], obj_type, &o) || !enif_get_int(env, argv[1], &ms)) return enif_make_badarg(env);
    hold_t *h = enif_alloc(sizeof *h);
    h->obj = o; h->ms = ms;
    enif_keep_resource(o);
    ErlNifTid tid;
    ErlNifThreadOpts *opts = enif_thread_opts_create("holder");
    int r = enif_thread_create("holder", &tid, holder, h, opts);
    enif_thread_opts_destroy(opts);
    if (r != 0) { enif_release_resource(o); enif_free(h); return enif_make_badarg(env); }
    return enif_make_atom(env, "ok");
}

static ErlNifFunc funcs[] = {
    {"gen", 0, gen, 0}, {"events", 0, events, 0}, {"new_obj", 0, new_obj, 0},
    {"dtor_count", 0, dtor_count, 0}, {"hold", 2, hold, 0},
};

ERL_NIF_INIT(nif_upgrade, funcs, load, NULL, upgrade, unload)
