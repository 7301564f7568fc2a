/* Binaries: inspection, refcounted binary buffers (enif_alloc_binary & co.), making binaries,
 * sub-binaries and iolist flattening. Binary terms point at env-arena copies or at a
 * refcounted jb_binbuf that the env keeps alive until it is cleared. */
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

/* Every binary buffer gets a few bytes beyond its size. NIF libraries written for erts get away
 * with writing just past a binary (p1_sha's to_hexlist sprintf's a NUL after 2*n hex digits into
 * an enif_alloc_binary(2*n) buffer): erts' allocators round sizes up, and malloc would take the
 * overrun into its own chunk header and abort later. */
#define JB_BIN_SLACK 8

ERL_NIF_TERM jb_make_bin(ErlNifEnv *env, const unsigned char *data, size_t size, jb_binbuf *owner) {
    jb_bin *b = jb_alloc(env, sizeof *b);
    b->h.type = JB_BIN; b->h.n = 0;
    b->size = size; b->data = (unsigned char *)data; b->owner = owner;
    return (ERL_NIF_TERM)(uintptr_t)b;
}

int enif_inspect_binary(ErlNifEnv *env, ERL_NIF_TERM t, ErlNifBinary *bin) {
    (void)env;
    if (jb_box_type(t) != JB_BIN) return 0;
    jb_bin *b = (jb_bin *)jb_box(t);
    memset(bin, 0, sizeof *bin);
    bin->size = b->size; bin->data = b->data; bin->ref_bin = NULL;
    return 1;
}

int enif_alloc_binary(size_t size, ErlNifBinary *bin) {
    jb_binbuf *b = malloc(sizeof(jb_binbuf) + size + JB_BIN_SLACK);
    if (!b) return 0;
    b->refc = 1; b->size = size;
    memset(bin, 0, sizeof *bin);
    bin->size = size; bin->data = b->data; bin->ref_bin = b;
    return 1;
}

int enif_realloc_binary(ErlNifBinary *bin, size_t size) {
    if (bin->ref_bin) {
        jb_binbuf *b = realloc(bin->ref_bin, sizeof(jb_binbuf) + size + JB_BIN_SLACK);
        if (!b) return 0;
        b->size = size;
        bin->ref_bin = b; bin->data = b->data; bin->size = size;
        return 1;
    }
    /* an inspected (read-only) binary: reallocating gives a fresh owned copy */
    const unsigned char *old = bin->data; size_t oldsize = bin->size;
    if (!enif_alloc_binary(size, bin)) return 0;
    memcpy(bin->data, old, oldsize < size ? oldsize : size);
    return 1;
}

void enif_release_binary(ErlNifBinary *bin) {
    jb_binbuf *b = bin->ref_bin;
    if (b && __atomic_sub_fetch(&b->refc, 1, __ATOMIC_ACQ_REL) == 0) free(b);
    bin->ref_bin = NULL;
}

ERL_NIF_TERM enif_make_binary(ErlNifEnv *env, ErlNifBinary *bin) {
    jb_binbuf *b = bin->ref_bin;
    if (b) {   /* ownership moves to the term (and so to the env) */
        jb_env_own_buf(env, b);
        bin->ref_bin = NULL;
        return jb_make_bin(env, b->data, bin->size, b);
    }
    unsigned char *p = jb_alloc(env, bin->size ? bin->size : 1);
    memcpy(p, bin->data, bin->size);
    return jb_make_bin(env, p, bin->size, NULL);
}

unsigned char *enif_make_new_binary(ErlNifEnv *env, size_t size, ERL_NIF_TERM *termp) {
    unsigned char *p;
    if (size > 4096) {   /* large: its own buffer instead of arena space */
        jb_binbuf *b = malloc(sizeof(jb_binbuf) + size + JB_BIN_SLACK);
        if (!b) return NULL;
        b->refc = 1; b->size = size;
        jb_env_own_buf(env, b);
        *termp = jb_make_bin(env, b->data, size, b);
        return b->data;
    }
    p = jb_alloc(env, size + JB_BIN_SLACK);
    *termp = jb_make_bin(env, p, size, NULL);
    return p;
}

ERL_NIF_TERM enif_make_sub_binary(ErlNifEnv *env, ERL_NIF_TERM bin_term, size_t pos, size_t size) {
    if (jb_box_type(bin_term) != JB_BIN) return enif_make_badarg(env);
    jb_bin *b = (jb_bin *)jb_box(bin_term);
    if (pos > b->size || size > b->size - pos) return enif_make_badarg(env);
    if (b->owner) { __atomic_add_fetch(&b->owner->refc, 1, __ATOMIC_ACQ_REL); jb_env_own_buf(env, b->owner); }
    return jb_make_bin(env, b->data + pos, size, b->owner);
}

ERL_NIF_TERM enif_make_resource_binary(ErlNifEnv *env, void *obj, const void *data, size_t size) {
    (void)obj;   /* the bytes are copied: the resource need not be kept alive */
    unsigned char *p = jb_alloc(env, size ? size : 1);
    memcpy(p, data, size);
    return jb_make_bin(env, p, size, NULL);
}

/* iolist size; -1 when not an iolist */
static long iolist_size(ERL_NIF_TERM t, int depth) {
    if (jb_box_type(t) == JB_BIN) return (long)((jb_bin *)jb_box(t))->size;
    if (depth > 10000) return -1;
    long n = 0;
    while (jb_box_type(t) == JB_CONS) {
        jb_cons *c = (jb_cons *)jb_box(t);
        if (jb_is_small(c->head)) {
            int64_t v = jb_small_val(c->head);
            if (v < 0 || v > 255) return -1;
            n++;
        } else if (jb_box_type(c->head) == JB_BIN || jb_box_type(c->head) == JB_CONS || c->head == JB_NIL) {
            long m = iolist_size(c->head, depth + 1);
            if (m < 0) return -1;
            n += m;
        } else return -1;
        t = c->tail;
    }
    if (t == JB_NIL) return n;
    if (jb_box_type(t) == JB_BIN) return n + (long)((jb_bin *)jb_box(t))->size;
    return -1;
}
static unsigned char *iolist_copy(ERL_NIF_TERM t, unsigned char *p) {
    if (jb_box_type(t) == JB_BIN) { jb_bin *b = (jb_bin *)jb_box(t); memcpy(p, b->data, b->size); return p + b->size; }
    while (jb_box_type(t) == JB_CONS) {
        jb_cons *c = (jb_cons *)jb_box(t);
        if (jb_is_small(c->head)) *p++ = (unsigned char)jb_small_val(c->head);
        else p = iolist_copy(c->head, p);
        t = c->tail;
    }
    if (jb_box_type(t) == JB_BIN) p = iolist_copy(t, p);
    return p;
}

int enif_inspect_iolist_as_binary(ErlNifEnv *env, ERL_NIF_TERM t, ErlNifBinary *bin) {
    if (jb_box_type(t) == JB_BIN) return enif_inspect_binary(env, t, bin);
    if (t != JB_NIL && jb_box_type(t) != JB_CONS) return 0;
    long n = iolist_size(t, 0);
    if (n < 0) return 0;
    unsigned char *p = jb_alloc(env, n ? (size_t)n : 1);
    iolist_copy(t, p);
    memset(bin, 0, sizeof *bin);
    bin->size = (size_t)n; bin->data = p; bin->ref_bin = NULL;
    return 1;
}

/* The external term format is Java's (the runtime's term_to_binary/binary_to_term, so the bytes
 * are exactly erlang:term_to_binary's): the term crosses in the flat encoding both ways. */
int enif_term_to_binary(ErlNifEnv *env, ERL_NIF_TERM term, ErlNifBinary *bin) {
    if (!jb_cb.to_etf) return 0;
    ErlNifEnv tmp; memset(&tmp, 0, sizeof tmp);
    unsigned char *etf = NULL; size_t n = 0;
    int ok = jb_serialize(&tmp, term) && jb_cb.to_etf(tmp.out, tmp.outlen, &etf, &n) == 0;
    free(tmp.out);
    if (!ok) return 0;
    ok = enif_alloc_binary(n, bin);
    if (ok) memcpy(bin->data, etf, n);
    free(etf);
    return ok;
}
size_t enif_binary_to_term(ErlNifEnv *env, const unsigned char *data, size_t sz, ERL_NIF_TERM *term, unsigned int opts) {
    if (!jb_cb.from_etf || (opts & ~(unsigned)ERL_NIF_BIN2TERM_SAFE)) return 0;
    unsigned char *flat = NULL; size_t n = 0, used = 0;
    if (jb_cb.from_etf(data, sz, (opts & ERL_NIF_BIN2TERM_SAFE) != 0, &flat, &n, &used) != 0) return 0;
    /* the env keeps the flat bytes: decoded binaries point into them */
    jb_binbuf *b = malloc(sizeof *b + (n ? n : 1));
    b->refc = 1; b->size = n;
    memcpy(b->data, flat, n);
    free(flat);
    jb_env_own_buf(env, b);
    ERL_NIF_TERM t;
    if (!jb_deserialize(env, b->data, n, &t)) return 0;
    *term = t;
    return used;
}
