/* Resource types and objects. A resource is refcounted: enif_alloc_resource gives one reference,
 * each env whose terms point at it holds one until cleared, and Java holds one per resource term
 * it decoded (released by a Cleaner). The destructor runs when the count reaches zero.
 * Monitors, select and dynamic calls are not supported yet (they report failure). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "nif_internal.h"

static ErlNifResourceType *types;
static pthread_mutex_t types_lock = PTHREAD_MUTEX_INITIALIZER;

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
    return open_type(env, "", name_str, init, flags, tried);
}
ErlNifResourceType *enif_init_resource_type(ErlNifEnv *env, const char *name_str, const ErlNifResourceTypeInit *init,
                                            ErlNifResourceFlags flags, ErlNifResourceFlags *tried) {
    return open_type(env, "", name_str, init, flags, tried);
}

static jb_resource *hdr_of(void *obj) { return (jb_resource *)((unsigned char *)obj - offsetof(jb_resource, data)); }

void *enif_alloc_resource(ErlNifResourceType *type, size_t size) {
    jb_resource *r = malloc(sizeof(jb_resource) + (size ? size : 1));
    if (!r) return NULL;
    r->refc = 1; r->type = type; r->size = size;
    memset(r->data, 0, size);
    return r->data;
}

void jb_resource_release(jb_resource *r) {
    if (__atomic_sub_fetch(&r->refc, 1, __ATOMIC_ACQ_REL) != 0) return;
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

/* ---- not supported yet: monitors, select, dynamic calls ---- */
int enif_monitor_process(ErlNifEnv *env, void *obj, const ErlNifPid *pid, ErlNifMonitor *mon) {
    (void)env; (void)obj; (void)pid; (void)mon; return 1;   /* "process not alive" */
}
int enif_demonitor_process(ErlNifEnv *env, void *obj, const ErlNifMonitor *mon) { (void)env; (void)obj; (void)mon; return 1; }
int enif_compare_monitors(const ErlNifMonitor *a, const ErlNifMonitor *b) { return memcmp(a->data, b->data, sizeof a->data); }
ERL_NIF_TERM enif_make_monitor_term(ErlNifEnv *env, const ErlNifMonitor *mon) { (void)mon; return enif_make_badarg(env); }
int enif_select(ErlNifEnv *env, ErlNifEvent e, enum ErlNifSelectFlags flags, void *obj, const ErlNifPid *pid, ERL_NIF_TERM ref) {
    (void)env; (void)e; (void)flags; (void)obj; (void)pid; (void)ref; return ERL_NIF_SELECT_FAILED | ERL_NIF_SELECT_NOTSUP;
}
int enif_select_x(ErlNifEnv *env, ErlNifEvent e, enum ErlNifSelectFlags flags, void *obj, const ErlNifPid *pid,
                  ERL_NIF_TERM msg, ErlNifEnv *msg_env) {
    (void)msg_env; return enif_select(env, e, flags, obj, pid, msg);
}
int enif_dynamic_resource_call(ErlNifEnv *env, ERL_NIF_TERM mod, ERL_NIF_TERM name, ERL_NIF_TERM rsrc, void *call_data) {
    (void)env; (void)mod; (void)name; (void)rsrc; (void)call_data; return 1;
}

/* ---- exported for Java: resource references held by Java terms ---- */
void jbeam_resource_keep(void *res) { __atomic_add_fetch(&((jb_resource *)res)->refc, 1, __ATOMIC_ACQ_REL); }
void jbeam_resource_release(void *res) { jb_resource_release((jb_resource *)res); }
