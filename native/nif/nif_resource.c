/* Resource types and objects. A resource is refcounted: enif_alloc_resource gives one reference,
 * each env whose terms point at it holds one until cleared, and Java holds one per resource term
 * it decoded (released by NifResources' release thread once the term is unreachable, ADR 0048).
 * The destructor runs when the count reaches zero.
 * Process monitors (enif_monitor_process) are kept by Java (NifMonitors): the target's exit calls
 * jbeam_resource_down, which runs the type's down callback if the resource is still alive; a
 * resource being destructed first has Java drop its monitors. Monitors do not keep a resource
 * alive, as in erts. Select is nif_select.c. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "nif_internal.h"

static ErlNifResourceType *types;
static pthread_mutex_t types_lock = PTHREAD_MUTEX_INITIALIZER;

/* The module each loaded library is for, by its priv_data slot (Java registers it before the
 * load callback runs): a resource type's owner, which enif_dynamic_resource_call looks up by. */
typedef struct jb_libmod { void **privp; char *module; struct jb_libmod *next; } jb_libmod;
static jb_libmod *libmods;

void jbeam_lib_module(void **privp, const char *module) {
    jb_libmod *m = malloc(sizeof *m);
    m->privp = privp; m->module = strdup(module);
    pthread_mutex_lock(&types_lock);
    m->next = libmods; libmods = m;
    pthread_mutex_unlock(&types_lock);
}

/* A library instance was unloaded (its module code purged): as erts drops the resource types it
 * owned, they leave the lookup list, so a later load may create them anew. The structs stay:
 * resources of those types may still be alive, and their destructors run as before. */
void jbeam_lib_unloaded(void **privp) {
    pthread_mutex_lock(&types_lock);
    for (ErlNifResourceType **tp = &types; *tp;) {
        if ((*tp)->privp == privp) *tp = (*tp)->next;
        else tp = &(*tp)->next;
    }
    pthread_mutex_unlock(&types_lock);
}

/* with types_lock held */
static const char *module_of(void **privp) {
    for (jb_libmod *m = libmods; m; m = m->next) if (m->privp == privp) return m->module;
    return NULL;
}

static ErlNifResourceType *open_type(ErlNifEnv *env, const char *module, const char *name,
                                     const ErlNifResourceTypeInit *init, ErlNifResourceFlags flags,
                                     ErlNifResourceFlags *tried) {
    size_t n = strlen(module) + strlen(name) + 2;
    char *full = malloc(n);
    snprintf(full, n, "%s:%s", module, name);
    pthread_mutex_lock(&types_lock);
    ErlNifResourceType *t = types;
    while (t && strcmp(t->name, full) != 0) t = t->next;
    ErlNifResourceType *r = NULL;
    ErlNifResourceFlags done = 0;
    if (t && (flags & ERL_NIF_RT_TAKEOVER)) {
        t->init = *init; t->privp = env ? env->privp : NULL;
        r = t; done = ERL_NIF_RT_TAKEOVER; free(full);
    } else if (!t && (flags & ERL_NIF_RT_CREATE)) {
        r = calloc(1, sizeof *r);
        r->name = full; r->init = *init; r->privp = env ? env->privp : NULL;
        r->owner = env ? module_of(env->privp) : NULL; r->short_name = strdup(name);
        r->next = types; types = r;
        done = ERL_NIF_RT_CREATE;
    } else free(full);
    pthread_mutex_unlock(&types_lock);
    if (tried) *tried = done ? done : flags;
    return r;
}

ErlNifResourceType *enif_open_resource_type(ErlNifEnv *env, const char *module_str, const char *name_str,
                                            void (*dtor)(ErlNifEnv *, void *), ErlNifResourceFlags flags,
                                            ErlNifResourceFlags *tried) {
    ErlNifResourceTypeInit init = { dtor, NULL, NULL, 1, NULL };
    return open_type(env, module_str ? module_str : "", name_str, &init, flags, tried);
}
ErlNifResourceType *enif_open_resource_type_x(ErlNifEnv *env, const char *name_str, const ErlNifResourceTypeInit *init,
                                              ErlNifResourceFlags flags, ErlNifResourceFlags *tried) {
    /* the _x variant reads dtor, stop and down only (callers may pass the older, shorter struct) */
    ErlNifResourceTypeInit i = { init->dtor, init->stop, init->down, 3, NULL };
    return open_type(env, "", name_str, &i, flags, tried);
}
ErlNifResourceType *enif_init_resource_type(ErlNifEnv *env, const char *name_str, const ErlNifResourceTypeInit *init,
                                            ErlNifResourceFlags flags, ErlNifResourceFlags *tried) {
    return open_type(env, "", name_str, init, flags, tried);
}

static jb_resource *hdr_of(void *obj) { return (jb_resource *)((unsigned char *)obj - offsetof(jb_resource, data)); }

void *enif_alloc_resource(ErlNifResourceType *type, size_t size) {
    jb_resource *r = malloc(sizeof(jb_resource) + (size ? size : 1));
    if (!r) return NULL;
    r->refc = 1; r->type = type; r->size = size; r->monitors = 0; r->java_id = 0;
    memset(r->data, 0, size);
    return r->data;
}

void jb_resource_release(jb_resource *r) {
    if (__atomic_sub_fetch(&r->refc, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (__atomic_load_n(&r->monitors, __ATOMIC_ACQUIRE) && jb_cb.demonitor_all) jb_cb.demonitor_all(r);
    if (r->type && r->type->init.dtor) {
        ErlNifEnv env; memset(&env, 0, sizeof env);
        env.privp = r->type->privp;
        r->type->init.dtor(&env, r->data);
        enif_clear_env(&env);
        free(env.chunks); free(env.bufs); free(env.ress); free(env.out);
    }
    free(r);
}

void enif_release_resource(void *obj) { jb_resource_release(hdr_of(obj)); }
void enif_keep_resource(void *obj) { __atomic_add_fetch(&hdr_of(obj)->refc, 1, __ATOMIC_ACQ_REL); }
size_t enif_sizeof_resource(void *obj) { return hdr_of(obj)->size; }

ERL_NIF_TERM enif_make_resource(ErlNifEnv *env, void *obj) {
    jb_resource *r = hdr_of(obj);
    jb_res *b = jb_alloc(env, sizeof *b);
    b->h.type = JB_RES; b->h.n = 0; b->res = r;
    jb_env_own_res(env, r);
    return (ERL_NIF_TERM)(uintptr_t)b;
}

int enif_get_resource(ErlNifEnv *env, ERL_NIF_TERM t, ErlNifResourceType *type, void **objp) {
    (void)env;
    if (jb_box_type(t) != JB_RES) return 0;
    jb_resource *r = ((jb_res *)jb_box(t))->res;
    if (r->type != type) return 0;
    *objp = r->data;
    return 1;
}

/* ---- process monitors ---- */
/* ErlNifMonitor holds the opaque id of the monitor's reference in its first 8 bytes. */
static uint64_t mon_id(const ErlNifMonitor *m) { uint64_t v; memcpy(&v, m->data, 8); return v; }

int enif_monitor_process(ErlNifEnv *env, void *obj, const ErlNifPid *pid, ErlNifMonitor *mon) {
    jb_resource *r = hdr_of(obj);
    if (!r->type || !r->type->init.down) return -1;    /* as erts: the type has no down callback */
    if (jb_opaque_kind(pid->pid) != JB_OPQ_PID || !jb_cb.monitor) return 1;
    uint64_t id = 0;
    __atomic_add_fetch(&r->monitors, 1, __ATOMIC_ACQ_REL);
    if (jb_cb.monitor(r, jb_opaque_id(pid->pid), &id) != 0) return 1;
    if (mon) { memset(mon->data, 0, sizeof mon->data); memcpy(mon->data, &id, 8); }
    return 0;
}
int enif_demonitor_process(ErlNifEnv *env, void *obj, const ErlNifMonitor *mon) {
    (void)obj;
    return jb_cb.demonitor && mon_id(mon) ? jb_cb.demonitor(mon_id(mon)) : 1;
}
int enif_compare_monitors(const ErlNifMonitor *a, const ErlNifMonitor *b) {
    uint64_t x = mon_id(a), y = mon_id(b);
    return x < y ? -1 : x > y;
}
ERL_NIF_TERM enif_make_monitor_term(ErlNifEnv *env, const ErlNifMonitor *mon) {
    return mon_id(mon) ? jb_make_opaque(JB_OPQ_REF, mon_id(mon)) : enif_make_badarg(env);
}

/* Called by Java when a monitored process exited: runs the down callback if the resource is
 * still alive (its count is taken only if nonzero, so a resource being destructed is skipped). */
void jbeam_resource_down(void *res, uint64_t pid_id, uint64_t id) {
    jb_resource *r = res;
    long c = __atomic_load_n(&r->refc, __ATOMIC_ACQUIRE);
    do { if (c == 0) return; } while (!__atomic_compare_exchange_n(&r->refc, &c, c + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    ErlNifEnv env; memset(&env, 0, sizeof env);
    env.privp = r->type->privp;
    ErlNifPid pid = { jb_make_opaque(JB_OPQ_PID, pid_id) };
    ErlNifMonitor mon; memset(&mon, 0, sizeof mon); memcpy(mon.data, &id, 8);
    r->type->init.down(&env, r->data, &pid, &mon);
    enif_clear_env(&env);
    free(env.chunks); free(env.bufs); free(env.ress); free(env.out);
    jb_resource_release(r);
}

/* As erts: the resource type named {mod, name} (created by the library of module mod), the
 * resource term of that type, and the type's dyncall callback; 0 when called, else 1. */
int enif_dynamic_resource_call(ErlNifEnv *env, ERL_NIF_TERM mod, ERL_NIF_TERM name, ERL_NIF_TERM rsrc, void *call_data) {
    if (!jb_is_atom(mod) || !jb_is_atom(name) || jb_box_type(rsrc) != JB_RES) return 1;
    size_t ml, nl;
    const char *m = jb_atom_name(jb_atom_index(mod), &ml), *n = jb_atom_name(jb_atom_index(name), &nl);
    if (!m || !n) return 1;
    ErlNifResourceType *t;
    pthread_mutex_lock(&types_lock);
    for (t = types; t; t = t->next)
        if (t->owner && strlen(t->owner) == ml && memcmp(t->owner, m, ml) == 0
            && strlen(t->short_name) == nl && memcmp(t->short_name, n, nl) == 0) break;
    pthread_mutex_unlock(&types_lock);
    jb_resource *r = ((jb_res *)jb_box(rsrc))->res;
    if (!t || r->type != t || t->init.members < 4 || !t->init.dyncall) return 1;
    t->init.dyncall(env, r->data, call_data);
    return 0;
}

/* ---- exported for Java: resource references held by Java terms ---- */
void jbeam_resource_keep(void *res) { __atomic_add_fetch(&((jb_resource *)res)->refc, 1, __ATOMIC_ACQ_REL); }
void jbeam_resource_release(void *res) { jb_resource_release((jb_resource *)res); }
