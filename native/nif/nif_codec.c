/* The Java boundary: decoding argument terms from Java's flat encoding into an env,
 * serializing a result back, and the entry points Java calls (jbeam_call & co.).
 * Flat encoding (little-endian), one tag byte then the payload:
 *   0 nil | 1 small i64 | 2 atom u32 | 3 float f64 | 4 bignum u8 neg, u32 n, n bytes LE
 *   5 tuple u32 n, n terms | 6 list u32 n, n terms, tail | 7 binary u32 n, n bytes
 *   8 map u32 n, n (key, value) | 9 opaque u8 kind, u64 id | 10 resource u64 pointer
 *   11 binary u32 n whose bytes are the call's heap argument (jbeam_call_heap), in place */
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

jb_callbacks jb_cb;

typedef struct { const unsigned char *p, *end; ErlNifEnv *env; int bad; const unsigned char *heap; } rd_t;

static uint32_t rd_u32(rd_t *r) { uint32_t v = 0; if (r->end - r->p < 4) { r->bad = 1; return 0; } memcpy(&v, r->p, 4); r->p += 4; return v; }
static uint64_t rd_u64(rd_t *r) { uint64_t v = 0; if (r->end - r->p < 8) { r->bad = 1; return 0; } memcpy(&v, r->p, 8); r->p += 8; return v; }

static ERL_NIF_TERM decode(rd_t *r) {
    if (r->bad || r->p >= r->end) { r->bad = 1; return JB_NIL; }
    ErlNifEnv *env = r->env;
    switch (*r->p++) {
    case 0: return JB_NIL;
    case 1: return jb_make_i64(env, (int64_t)rd_u64(r));
    case 2: return jb_make_atom_ix(rd_u32(r));
    case 3: { uint64_t b = rd_u64(r); double d; memcpy(&d, &b, 8); return enif_make_double(env, d); }
    case 4: {
        if (r->p >= r->end) { r->bad = 1; return JB_NIL; }
        int neg = *r->p++;
        uint32_t n = rd_u32(r);
        if ((size_t)(r->end - r->p) < n) { r->bad = 1; return JB_NIL; }
        ERL_NIF_TERM t = jb_make_big(env, neg, r->p, n);
        r->p += n;
        return t;
    }
    case 5: {
        uint32_t n = rd_u32(r);
        if (r->bad) return JB_NIL;
        jb_tuple *t = jb_alloc(env, sizeof(jb_tuple) + n * sizeof(ERL_NIF_TERM));
        t->h.type = JB_TUPLE; t->h.n = n;
        for (uint32_t i = 0; i < n; i++) t->el[i] = decode(r);
        return (ERL_NIF_TERM)(uintptr_t)t;
    }
    case 6: {
        uint32_t n = rd_u32(r);
        ERL_NIF_TERM result = JB_NIL, *slot = &result;
        for (uint32_t i = 0; i < n && !r->bad; i++) {
            jb_cons *c = jb_alloc(env, sizeof *c);
            c->h.type = JB_CONS; c->h.n = 0;
            c->head = decode(r);
            *slot = (ERL_NIF_TERM)(uintptr_t)c;
            slot = &c->tail;
        }
        *slot = decode(r);
        return result;
    }
    case 7: {
        uint32_t n = rd_u32(r);
        if ((size_t)(r->end - r->p) < n) { r->bad = 1; return JB_NIL; }
        ERL_NIF_TERM t = jb_make_bin(env, r->p, n, NULL);   /* points into Java's input buffer */
        r->p += n;
        return t;
    }
    case 8: {
        uint32_t n = rd_u32(r);
        if (r->bad) return JB_NIL;
        ERL_NIF_TERM *k, *v;
        ERL_NIF_TERM m = jb_make_map(env, n, &k, &v);
        for (uint32_t i = 0; i < n; i++) { k[i] = decode(r); v[i] = decode(r); }
        return m;
    }
    case 9: {
        if (r->p >= r->end) { r->bad = 1; return JB_NIL; }
        int kind = *r->p++;
        return jb_make_opaque(kind, rd_u64(r));
    }
    case 11: {
        uint32_t n = rd_u32(r);
        if (r->bad || !r->heap) { r->bad = 1; return JB_NIL; }
        ERL_NIF_TERM t = jb_make_bin(env, r->heap, n, NULL);   /* Java's array, valid during this critical call */
        r->heap = NULL;   /* one per call */
        return t;
    }
    case 10: {
        jb_resource *res = (jb_resource *)(uintptr_t)rd_u64(r);
        if (r->bad) return JB_NIL;
        jb_res *b = jb_alloc(env, sizeof *b);
        b->h.type = JB_RES; b->h.n = 0; b->res = res;
        jb_env_own_res(env, res);
        return (ERL_NIF_TERM)(uintptr_t)b;
    }
    }
    r->bad = 1;
    return JB_NIL;
}

/* ---- writer into env->out ---- */
static void need(ErlNifEnv *env, size_t n) {
    if (env->outlen + n <= env->outcap) return;
    size_t cap = env->outcap ? env->outcap * 2 : 256;
    while (cap < env->outlen + n) cap *= 2;
    env->out = realloc(env->out, cap);
    env->outcap = cap;
}
static void w8(ErlNifEnv *e, unsigned v) { need(e, 1); e->out[e->outlen++] = (unsigned char)v; }
static void w32(ErlNifEnv *e, uint32_t v) { need(e, 4); memcpy(e->out + e->outlen, &v, 4); e->outlen += 4; }
static void w64(ErlNifEnv *e, uint64_t v) { need(e, 8); memcpy(e->out + e->outlen, &v, 8); e->outlen += 8; }
static void wbytes(ErlNifEnv *e, const void *p, size_t n) { need(e, n); if (n) memcpy(e->out + e->outlen, p, n); e->outlen += n; }

static int ser(ErlNifEnv *e, ERL_NIF_TERM t) {
    for (;;) {
        if (t == JB_NIL) { w8(e, 0); return 1; }
        if (jb_is_small(t)) { w8(e, 1); w64(e, (uint64_t)jb_small_val(t)); return 1; }
        if (jb_is_atom(t)) { w8(e, 2); w32(e, jb_atom_index(t)); return 1; }
        int k = jb_opaque_kind(t);
        if (k) { w8(e, 9); w8(e, (unsigned)k); w64(e, jb_opaque_id(t)); return 1; }
        if (!jb_is_box(t)) return 0;
        jb_hdr *h = jb_box(t);
        switch (h->type) {
        case JB_FLOAT: { uint64_t b; memcpy(&b, &((jb_float *)h)->d, 8); w8(e, 3); w64(e, b); return 1; }
        case JB_BIG: { jb_big *b = (jb_big *)h; w8(e, 4); w8(e, (unsigned)b->neg); w32(e, h->n); wbytes(e, b->mag, h->n); return 1; }
        case JB_TUPLE: {
            jb_tuple *x = (jb_tuple *)h;
            w8(e, 5); w32(e, h->n);
            for (uint32_t i = 0; i < h->n; i++) if (!ser(e, x->el[i])) return 0;
            return 1;
        }
        case JB_CONS: {
            uint32_t n = 0; ERL_NIF_TERM s = t;
            while (jb_box_type(s) == JB_CONS) { n++; s = ((jb_cons *)jb_box(s))->tail; }
            w8(e, 6); w32(e, n);
            while (jb_box_type(t) == JB_CONS) { if (!ser(e, ((jb_cons *)jb_box(t))->head)) return 0; t = ((jb_cons *)jb_box(t))->tail; }
            continue;   /* the tail */
        }
        case JB_BIN: { jb_bin *b = (jb_bin *)h; w8(e, 7); w32(e, (uint32_t)b->size); wbytes(e, b->data, b->size); return 1; }
        case JB_MAP: {
            jb_map *m = (jb_map *)h;
            w8(e, 8); w32(e, h->n);
            for (uint32_t i = 0; i < h->n; i++) if (!ser(e, m->keys[i]) || !ser(e, m->vals[i])) return 0;
            return 1;
        }
        case JB_RES: {
            jb_resource *r = ((jb_res *)h)->res;
            if (e->ser_keep) __atomic_add_fetch(&r->refc, 1, __ATOMIC_ACQ_REL);
            w8(e, 10); w64(e, (uint64_t)(uintptr_t)r);
            return 1;
        }
        }
        return 0;
    }
}

int jb_serialize(ErlNifEnv *env, ERL_NIF_TERM t) { env->outlen = 0; return ser(env, t); }

/* ---- entry points for Java ---- */
void jbeam_set_callbacks(void *atom_exists, void *send, void *make_ref) {
    jb_cb.atom_exists = (int (*)(const char *, size_t))atom_exists;
    jb_cb.send = (int (*)(uint64_t, const unsigned char *, size_t))send;
    jb_cb.make_ref = (uint64_t (*)(void))make_ref;
}
void jbeam_set_term_callbacks(void *to_etf, void *from_etf, void *whereis, void *phash2) {
    jb_cb.phash2 = (uint64_t (*)(const unsigned char *, size_t))phash2;
    jb_cb.to_etf = (int (*)(const unsigned char *, size_t, unsigned char **, size_t *))to_etf;
    jb_cb.from_etf = (int (*)(const unsigned char *, size_t, int, unsigned char **, size_t *, size_t *))from_etf;
    jb_cb.whereis = (int (*)(uint32_t, uint64_t *))whereis;
}
void *jbeam_malloc(size_t n) { return malloc(n ? n : 1); }
int jb_deserialize(ErlNifEnv *env, const unsigned char *in, size_t len, ERL_NIF_TERM *t) {
    rd_t r = { in, in + len, env, 0, NULL };
    *t = decode(&r);
    return !r.bad && r.p == r.end;
}
void jbeam_set_port_callbacks(void *port_command, void *port_alive) {
    jb_cb.port_command = (int (*)(uint64_t, uint64_t, const unsigned char *, size_t))port_command;
    jb_cb.port_alive = (int (*)(uint64_t))port_alive;
}
void jbeam_set_monitor_callbacks(void *monitor, void *demonitor, void *demonitor_all) {
    jb_cb.monitor = (int (*)(void *, uint64_t, uint64_t *))monitor;
    jb_cb.demonitor = (int (*)(uint64_t))demonitor;
    jb_cb.demonitor_all = (void (*)(void *))demonitor_all;
}
ErlNifEnv *jbeam_env_new(void) { return jb_env_new(); }
void jbeam_env_free(ErlNifEnv *env) { enif_free_env(env); }
void jbeam_env_clear(ErlNifEnv *env) { enif_clear_env(env); }
extern long jb_dirty_jobs;
long jbeam_dirty_jobs(void) { return jb_dirty_jobs; }

/* One call's parameters and results, in native memory Java owns (NifCallContext): a single
 * pointer crosses the boundary instead of ten arguments. Offsets are mirrored in NifCallContext. */
typedef ERL_NIF_TERM (*nif_fp)(ErlNifEnv *, int, const ERL_NIF_TERM[]);
typedef struct {
    ErlNifEnv *env;                 /*  0 */
    void **privp;                   /*  8 */
    uint64_t self;                  /* 16 opaque pid id of the caller, 0 = none */
    nif_fp fp;                      /* 24 */
    const unsigned char *in;        /* 32 flat-encoded arguments whose word is 0 */
    size_t inlen;                   /* 40 */
    const unsigned char *out;       /* 48 serialized result (or exception reason) */
    size_t outlen;                  /* 56 */
    ERL_NIF_TERM result;            /* 64 the result itself when the status has JB_IMM */
    int32_t argc;                   /* 72 */
    int32_t mode;                   /* 76 */
    ERL_NIF_TERM argw[];            /* 80 per argument: the ERL_NIF_TERM of an immediate, or 0 = decode from in */
} jb_callctx;

/* Result statuses: 0 ok (out = result), 1 error exception (out = reason), -1 bad input, -2 unencodable result;
 * | JB_CLEARED when the env was already cleared here (always, now that resources in the result
 * carry a reference for Java): saves Java a downcall;
 * | JB_IMM when the result (or reason) is an immediate small/atom/[] left in cx->result
 * unserialized (the env is then always cleared: an immediate keeps nothing alive). */
#define JB_CLEARED 64
#define JB_IMM 128
static int finish(jb_callctx *cx, ERL_NIF_TERM res) {
    ErlNifEnv *env = cx->env;
    int status = 0;
    if (res == JB_NONVALUE || env->exception) {
        res = env->exception ? env->exception : jb_atom("badarg");
        status = 1;
    }
    if (jb_is_small(res) || jb_is_atom(res) || res == JB_NIL) {
        cx->result = res;
        if (env->nbufs | env->nress || (env->chunks && (env->chunks->used | (uintptr_t)env->chunks->next)))
            enif_clear_env(env);
        else
            env->exception = 0, env->sched_fp = NULL, env->outlen = 0;   /* what clearing an untouched env amounts to */
        return status | JB_IMM | JB_CLEARED;
    }
    /* each resource in the result gets a reference of its own that Java adopts (NifResources),
     * so the env's can go now: Java needs no second downcall to clear it */
    env->ser_keep = 1;
    int ok = jb_serialize(env, res);
    env->ser_keep = 0;
    if (!ok) return -2;
    cx->out = env->out; cx->outlen = env->outlen;
    size_t n = env->outlen;
    enif_clear_env(env);   /* the serialized result (env->out) survives clearing */
    env->outlen = n;
    return status | JB_CLEARED;
}

/* A call made with a heap argument (jbeam_call_heap) may leave a continuation (enif_schedule_nif)
 * that runs after the downcall, when the Java array may have moved: binaries in its arguments that
 * point into the array get copies in the env first. */
static void unheap(ErlNifEnv *env, ERL_NIF_TERM t) {
    while (jb_is_box(t)) {
        jb_hdr *h = jb_box(t);
        switch (h->type) {
        case JB_BIN: {
            jb_bin *b = (jb_bin *)h;
            if (b->data >= env->heap_lo && b->data < env->heap_hi) {
                unsigned char *p = jb_alloc(env, b->size ? b->size : 1);
                memcpy(p, b->data, b->size);
                b->data = p;
            }
            return;
        }
        case JB_TUPLE: for (uint32_t i = 0; i < h->n; i++) unheap(env, ((jb_tuple *)h)->el[i]); return;
        case JB_MAP: for (uint32_t i = 0; i < h->n; i++) { unheap(env, ((jb_map *)h)->keys[i]); unheap(env, ((jb_map *)h)->vals[i]); } return;
        case JB_CONS: unheap(env, ((jb_cons *)h)->head); t = ((jb_cons *)h)->tail; continue;
        default: return;
        }
    }
}
static void unheap_all(ErlNifEnv *env) {
    if (!env->heap_lo) return;
    for (int i = 0; i < env->sched_argc; i++) unheap(env, env->sched_argv[i]);
    env->heap_lo = env->heap_hi = NULL;
}

/* What kind of thread runs NIF code right now (enif_thread_type): 0 = not in a call,
 * else 1 + mode, mode being 0 (normal scheduler), ERL_NIF_DIRTY_JOB_CPU_BOUND or _IO_BOUND. */
__thread int jb_thread_mode __attribute__((tls_model("initial-exec")));   /* no __tls_get_addr per call */

/* Runs the env's scheduled continuations (enif_schedule_nif) while they ask for the kind of
 * thread we are on; a continuation that wants another kind is left in the env and reported as
 * status JB_RESCHEDULE | flags: Java moves the call to that pool (or back to the process's
 * scheduler) and continues it there with jbeam_resume, the env and its terms unchanged. */
#define JB_RESCHEDULE 16
#define JB_MAY_YIELD 4   /* in mode: a normal scheduler whose process can yield between steps */
static int run(jb_callctx *cx, ERL_NIF_TERM res, int mode, int resumed) {
    ErlNifEnv *env = cx->env;
    int may_yield = mode & JB_MAY_YIELD;
    mode &= 3;
    jb_thread_mode = 1 + mode;
    while (res == JB_SCHEDULED && env->sched_fp) {
        /* another kind of thread wanted, or a yielding NIF whose process should let others run;
         * a resumed call runs its pending step first (Java moved it here for that) */
        if (!resumed && (env->sched_flags != mode || may_yield)) {
            jb_thread_mode = 0;
            unheap_all(env);   /* the continuation outlives this downcall: no pointers into Java's heap */
            return JB_RESCHEDULE | env->sched_flags;
        }
        resumed = 0;
        nif_fp next = env->sched_fp;
        env->sched_fp = NULL;
        res = next(env, env->sched_argc, env->sched_argv);
    }
    jb_thread_mode = 0;
    return finish(cx, res);
}

/* Calls cx->fp on the current thread, which is of kind cx->mode (0 normal, 1 dirty CPU, 2 dirty IO;
 * | JB_MAY_YIELD on a normal scheduler: return flags-0 continuations to Java to yield).
 * heap: the bytes of one binary argument (tag 11) in a Java array, when Java made this a
 * critical downcall with heap access (ADR 0006: only for libraries that never call back into
 * Java); valid until this returns. */
static int call(jb_callctx *cx, const unsigned char *heap, size_t heaplen) {
    ErlNifEnv *env = cx->env;
    int argc = cx->argc;
    env->privp = cx->privp;
    env->self = cx->self ? jb_make_opaque(JB_OPQ_PID, cx->self) : 0;
    env->exception = 0;
    env->heap_lo = heap; env->heap_hi = heap ? heap + heaplen : NULL;
    rd_t r = { cx->in, cx->in + cx->inlen, env, 0, heap };
    ERL_NIF_TERM small[8], *argv = argc <= 8 ? small : jb_alloc(env, (size_t)argc * sizeof(ERL_NIF_TERM));
    for (int i = 0; i < argc; i++) { ERL_NIF_TERM w = cx->argw[i]; argv[i] = w ? w : decode(&r); }
    if (r.bad || r.p != r.end || r.heap) return -1;
    jb_thread_mode = 1 + (cx->mode & 3);
    int st = run(cx, cx->fp(env, argc, argv), cx->mode, 0);
    env->heap_lo = env->heap_hi = NULL;
    return st;
}
int jbeam_call(jb_callctx *cx) { return call(cx, NULL, 0); }

/* The common shape of a NIF call (ADR 0022): at most 3 arguments, all immediates (small, atom,
 * []), passed as downcall parameters rather than through cx, and a result that is an immediate
 * returned as the result itself. Returns that ERL_NIF_TERM (low bits 01, 10 or 11), or any other
 * outcome as (status << 2) (low bits 00): the caller then goes on as after jbeam_call. Java
 * writes no argument words and reads nothing back from cx on this path; cx->in is not read
 * (nothing to decode), privp/self/fp/argc are read from cx as for jbeam_call. */
int64_t jbeam_call_imm(jb_callctx *cx, int32_t mode, ERL_NIF_TERM a0, ERL_NIF_TERM a1, ERL_NIF_TERM a2) {
    ErlNifEnv *env = cx->env;
    ERL_NIF_TERM argv[3] = { a0, a1, a2 };
    env->privp = cx->privp;
    env->self = cx->self ? jb_make_opaque(JB_OPQ_PID, cx->self) : 0;
    env->exception = 0;
    env->heap_lo = env->heap_hi = NULL;
    cx->mode = mode;
    jb_thread_mode = 1 + (mode & 3);
    ERL_NIF_TERM res = cx->fp(env, cx->argc, argv);
    /* The common outcome, decided here without run/finish (ADR 0038): an immediate result, no
     * exception, nothing scheduled, and an env the NIF allocated nothing in (no boxes, binaries or
     * resources to release). What finish would do for it is reset the env's per-call fields. */
    if ((res & 3) != 0 && (jb_is_small(res) || jb_is_atom(res) || res == JB_NIL) && !env->exception && !env->sched_fp
            && !(env->nbufs | env->nress) && !(env->chunks && (env->chunks->used | (uintptr_t)env->chunks->next))) {
        jb_thread_mode = 0;
        env->outlen = 0;
        return (int64_t)res;
    }
    int st = run(cx, res, mode, 0);
    if (st == (JB_IMM | JB_CLEARED)) return (int64_t)cx->result;
    return (int64_t)st * 4;
}
/* The heap argument is the whole Java array and the binary's offset in it: Java then needs no
 * slice segment per call (ADR 0026). */
int jbeam_call_heap(jb_callctx *cx, const unsigned char *heap, size_t off, size_t heaplen) { return call(cx, heap + off, heaplen); }

/* Continues a call that returned JB_RESCHEDULE, now on a thread of kind cx->mode. */
int jbeam_resume(jb_callctx *cx) {
    return run(cx, JB_SCHEDULED, cx->mode, 1);
}

typedef int (*load_fp)(ErlNifEnv *, void **, ERL_NIF_TERM);
typedef int (*upgrade_fp)(ErlNifEnv *, void **, void **, ERL_NIF_TERM);
typedef void (*unload_fp)(ErlNifEnv *, void *);

/* Runs a load (or reload) callback with the decoded load_info; returns its result, or INT32_MIN on bad input. */
int jbeam_call_load(ErlNifEnv *env, void **privp, load_fp fp, const unsigned char *in, size_t inlen) {
    env->privp = privp;
    rd_t r = { in, in + inlen, env, 0, NULL };
    ERL_NIF_TERM info = decode(&r);
    if (r.bad) return INT32_MIN;
    return fp(env, privp, info);
}
int jbeam_call_upgrade(ErlNifEnv *env, void **privp, void **old_privp, upgrade_fp fp, const unsigned char *in, size_t inlen) {
    env->privp = privp;
    rd_t r = { in, in + inlen, env, 0, NULL };
    ERL_NIF_TERM info = decode(&r);
    if (r.bad) return INT32_MIN;
    return fp(env, privp, old_privp, info);
}
void jbeam_call_unload(ErlNifEnv *env, void **privp, unload_fp fp) {
    env->privp = privp;
    fp(env, *privp);
}
