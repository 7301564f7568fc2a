/* Environments (ErlNifEnv): a bump arena for boxed terms, plus the binary buffers and
 * resources the env's terms keep alive, released when the env is cleared or freed. */
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

#define JB_CHUNK 8192

void *jb_alloc(ErlNifEnv *env, size_t n) {
    n = (n + 15) & ~(size_t)15;
    jb_chunk *c = env->chunks;
    if (c && c->size - c->used >= n) { void *p = c->mem + c->used; c->used += n; return p; }
    size_t sz = n > JB_CHUNK ? n : JB_CHUNK;
    jb_chunk *nc = malloc(sizeof(jb_chunk) + sz);   /* header is 32 bytes: mem stays 16-aligned */
    if (!nc) abort();
    nc->size = sz; nc->used = n;
    if (c && n > JB_CHUNK / 2) { nc->next = c->next; c->next = nc; }  /* big one-off: keep current on top */
    else { nc->next = c; env->chunks = nc; }
    return nc->mem;
}

void jb_env_own_buf(ErlNifEnv *env, jb_binbuf *b) {
    if (env->nbufs == env->capbufs) {
        env->capbufs = env->capbufs ? env->capbufs * 2 : 8;
        env->bufs = realloc(env->bufs, env->capbufs * sizeof *env->bufs);
    }
    env->bufs[env->nbufs++] = b;
}

void jb_env_own_res(ErlNifEnv *env, jb_resource *r) {
    __atomic_add_fetch(&r->refc, 1, __ATOMIC_ACQ_REL);
    if (env->nress == env->capress) {
        env->capress = env->capress ? env->capress * 2 : 8;
        env->ress = realloc(env->ress, env->capress * sizeof *env->ress);
    }
    env->ress[env->nress++] = r;
}

ErlNifEnv *jb_env_new(void) {
    ErlNifEnv *env = calloc(1, sizeof *env);
    return env;
}

ErlNifEnv *enif_alloc_env(void) { return jb_env_new(); }

void enif_clear_env(ErlNifEnv *env) {
    for (size_t i = 0; i < env->nbufs; i++) {
        jb_binbuf *b = env->bufs[i];
        if (__atomic_sub_fetch(&b->refc, 1, __ATOMIC_ACQ_REL) == 0) free(b);
    }
    env->nbufs = 0;
    size_t n = env->nress;
    env->nress = 0;
    for (size_t i = 0; i < n; i++) jb_resource_release(env->ress[i]);
    /* keep the first (most recent) chunk, free the rest */
    jb_chunk *c = env->chunks;
    if (c) {
        jb_chunk *r = c->next;
        while (r) { jb_chunk *nx = r->next; free(r); r = nx; }
        c->next = NULL;
        c->used = 0;
    }
    env->exception = 0;
    env->sched_fp = NULL;
    env->outlen = 0;
}

void enif_free_env(ErlNifEnv *env) {
    if (!env) return;
    enif_clear_env(env);
    free(env->chunks);
    free(env->bufs); free(env->ress); free(env->out);
    free(env);
}

void *enif_priv_data(ErlNifEnv *env) { return env->privp ? *env->privp : NULL; }

ERL_NIF_TERM enif_make_copy(ErlNifEnv *dst, ERL_NIF_TERM t) { return jb_copy(dst, t); }

ERL_NIF_TERM jb_copy(ErlNifEnv *dst, ERL_NIF_TERM t) {
    if (!jb_is_box(t)) return t;
    jb_hdr *h = jb_box(t);
    switch (h->type) {
    case JB_TUPLE: {
        jb_tuple *s = (jb_tuple *)h;
        jb_tuple *d = jb_alloc(dst, sizeof(jb_tuple) + h->n * sizeof(ERL_NIF_TERM));
        d->h = *h;
        for (uint32_t i = 0; i < h->n; i++) d->el[i] = jb_copy(dst, s->el[i]);
        return (ERL_NIF_TERM)(uintptr_t)d;
    }
    case JB_CONS: {
        /* iterative over the spine */
        ERL_NIF_TERM result = 0, *slot = &result;
        while (jb_box_type(t) == JB_CONS) {
            jb_cons *s = (jb_cons *)jb_box(t);
            jb_cons *d = jb_alloc(dst, sizeof *d);
            d->h = s->h; d->head = jb_copy(dst, s->head);
            *slot = (ERL_NIF_TERM)(uintptr_t)d;
            slot = &d->tail;
            t = s->tail;
        }
        *slot = jb_copy(dst, t);
        return result;
    }
    case JB_FLOAT: { jb_float *d = jb_alloc(dst, sizeof *d); *d = *(jb_float *)h; return (ERL_NIF_TERM)(uintptr_t)d; }
    case JB_BIG: {
        jb_big *s = (jb_big *)h;
        return jb_make_big(dst, s->neg, s->mag, h->n);
    }
    case JB_BIN: {
        jb_bin *s = (jb_bin *)h;
        if (s->owner) {
            __atomic_add_fetch(&s->owner->refc, 1, __ATOMIC_ACQ_REL);
            jb_env_own_buf(dst, s->owner);
            return jb_make_bin(dst, s->data, s->size, s->owner);
        }
        unsigned char *p = jb_alloc(dst, s->size ? s->size : 1);
        memcpy(p, s->data, s->size);
        return jb_make_bin(dst, p, s->size, NULL);
    }
    case JB_MAP: {
        jb_map *s = (jb_map *)h;
        ERL_NIF_TERM *k, *v;
        ERL_NIF_TERM m = jb_make_map(dst, h->n, &k, &v);
        for (uint32_t i = 0; i < h->n; i++) { k[i] = jb_copy(dst, s->keys[i]); v[i] = jb_copy(dst, s->vals[i]); }
        return m;
    }
    case JB_RES: {
        jb_res *s = (jb_res *)h;
        jb_res *d = jb_alloc(dst, sizeof *d);
        *d = *s;
        jb_env_own_res(dst, s->res);
        return (ERL_NIF_TERM)(uintptr_t)d;
    }
    }
    return t;
}
