/* Making and reading terms: integers of all widths, floats, tuples, lists, strings, maps,
 * type tests and exceptions. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "nif_internal.h"

/* ---- integers ---- */
ERL_NIF_TERM jb_make_big(ErlNifEnv *env, int neg, const unsigned char *mag, size_t n) {
    while (n > 0 && mag[n - 1] == 0) n--;
    jb_big *b = jb_alloc(env, sizeof(jb_big) + n);
    b->h.type = JB_BIG; b->h.n = (uint32_t)n; b->neg = neg;
    memcpy(b->mag, mag, n);
    return (ERL_NIF_TERM)(uintptr_t)b;
}

static ERL_NIF_TERM make_mag64(ErlNifEnv *env, int neg, uint64_t m) {
    unsigned char mag[8];
    for (int i = 0; i < 8; i++) mag[i] = (unsigned char)(m >> (8 * i));
    return jb_make_big(env, neg, mag, 8);
}

ERL_NIF_TERM jb_make_i64(ErlNifEnv *env, int64_t v) {
    if (v >= JB_SMALL_MIN && v <= JB_SMALL_MAX) return jb_make_small(v);
    return v < 0 ? make_mag64(env, 1, (uint64_t)0 - (uint64_t)v) : make_mag64(env, 0, (uint64_t)v);
}
ERL_NIF_TERM jb_make_u64(ErlNifEnv *env, uint64_t v) {
    if (v <= (uint64_t)JB_SMALL_MAX) return jb_make_small((int64_t)v);
    return make_mag64(env, 0, v);
}

/* The integer as sign + 64-bit magnitude; 0 when not an integer or too big. */
static int get_mag64(ERL_NIF_TERM t, int *neg, uint64_t *m) {
    if (jb_is_small(t)) { int64_t v = jb_small_val(t); *neg = v < 0; *m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; return 1; }
    if (jb_box_type(t) != JB_BIG) return 0;
    jb_big *b = (jb_big *)jb_box(t);
    if (b->h.n > 8) return 0;
    uint64_t r = 0;
    for (uint32_t i = 0; i < b->h.n; i++) r |= (uint64_t)b->mag[i] << (8 * i);
    *neg = b->neg; *m = r;
    return 1;
}
static int get_i64(ERL_NIF_TERM t, int64_t *out) {
    int neg; uint64_t m;
    if (!get_mag64(t, &neg, &m)) return 0;
    if (neg) { if (m > (uint64_t)1 << 63) return 0; *out = (int64_t)((uint64_t)0 - m); }
    else { if (m > (uint64_t)INT64_MAX) return 0; *out = (int64_t)m; }
    return 1;
}
static int get_u64(ERL_NIF_TERM t, uint64_t *out) {
    int neg; uint64_t m;
    if (!get_mag64(t, &neg, &m) || (neg && m)) return 0;
    *out = m;
    return 1;
}

int enif_get_int(ErlNifEnv *e, ERL_NIF_TERM t, int *ip) { (void)e; int64_t v; if (!get_i64(t, &v) || v < INT32_MIN || v > INT32_MAX) return 0; *ip = (int)v; return 1; }
int enif_get_uint(ErlNifEnv *e, ERL_NIF_TERM t, unsigned *ip) { (void)e; uint64_t v; if (!get_u64(t, &v) || v > UINT32_MAX) return 0; *ip = (unsigned)v; return 1; }
int enif_get_long(ErlNifEnv *e, ERL_NIF_TERM t, long *ip) { (void)e; int64_t v; if (!get_i64(t, &v)) return 0; *ip = (long)v; return 1; }
int enif_get_ulong(ErlNifEnv *e, ERL_NIF_TERM t, unsigned long *ip) { (void)e; uint64_t v; if (!get_u64(t, &v)) return 0; *ip = (unsigned long)v; return 1; }
#ifndef enif_get_int64   /* 64-bit longs: the header maps the *_int64 names onto *_long */
int enif_get_int64(ErlNifEnv *e, ERL_NIF_TERM t, ErlNifSInt64 *ip) { (void)e; int64_t v; if (!get_i64(t, &v)) return 0; *ip = v; return 1; }
int enif_get_uint64(ErlNifEnv *e, ERL_NIF_TERM t, ErlNifUInt64 *ip) { (void)e; uint64_t v; if (!get_u64(t, &v)) return 0; *ip = v; return 1; }
#endif
ERL_NIF_TERM enif_make_int(ErlNifEnv *e, int i) { (void)e; return jb_make_small(i); }
ERL_NIF_TERM enif_make_uint(ErlNifEnv *e, unsigned i) { (void)e; return jb_make_small(i); }
ERL_NIF_TERM enif_make_long(ErlNifEnv *e, long i) { return jb_make_i64(e, i); }
ERL_NIF_TERM enif_make_ulong(ErlNifEnv *e, unsigned long i) { return jb_make_u64(e, i); }
#ifndef enif_make_int64
ERL_NIF_TERM enif_make_int64(ErlNifEnv *e, ErlNifSInt64 i) { return jb_make_i64(e, i); }
ERL_NIF_TERM enif_make_uint64(ErlNifEnv *e, ErlNifUInt64 i) { return jb_make_u64(e, i); }
#endif

/* ---- floats ---- */
ERL_NIF_TERM enif_make_double(ErlNifEnv *env, double d) {
    if (!isfinite(d)) return enif_make_badarg(env);
    jb_float *f = jb_alloc(env, sizeof *f);
    f->h.type = JB_FLOAT; f->h.n = 0; f->d = d;
    return (ERL_NIF_TERM)(uintptr_t)f;
}
int enif_get_double(ErlNifEnv *e, ERL_NIF_TERM t, double *dp) {
    (void)e;
    if (jb_box_type(t) != JB_FLOAT) return 0;
    *dp = ((jb_float *)jb_box(t))->d;
    return 1;
}

/* ---- tuples ---- */
ERL_NIF_TERM enif_make_tuple_from_array(ErlNifEnv *env, const ERL_NIF_TERM arr[], unsigned cnt) {
    jb_tuple *t = jb_alloc(env, sizeof(jb_tuple) + cnt * sizeof(ERL_NIF_TERM));
    t->h.type = JB_TUPLE; t->h.n = cnt;
    if (cnt) memcpy(t->el, arr, cnt * sizeof(ERL_NIF_TERM));
    return (ERL_NIF_TERM)(uintptr_t)t;
}
ERL_NIF_TERM enif_make_tuple(ErlNifEnv *env, unsigned cnt, ...) {
    jb_tuple *t = jb_alloc(env, sizeof(jb_tuple) + cnt * sizeof(ERL_NIF_TERM));
    t->h.type = JB_TUPLE; t->h.n = cnt;
    va_list ap; va_start(ap, cnt);
    for (unsigned i = 0; i < cnt; i++) t->el[i] = va_arg(ap, ERL_NIF_TERM);
    va_end(ap);
    return (ERL_NIF_TERM)(uintptr_t)t;
}
int enif_get_tuple(ErlNifEnv *e, ERL_NIF_TERM tpl, int *arity, const ERL_NIF_TERM **array) {
    (void)e;
    if (jb_box_type(tpl) != JB_TUPLE) return 0;
    jb_tuple *t = (jb_tuple *)jb_box(tpl);
    *arity = (int)t->h.n; *array = t->el;
    return 1;
}

/* ---- lists ---- */
ERL_NIF_TERM enif_make_list_cell(ErlNifEnv *env, ERL_NIF_TERM car, ERL_NIF_TERM cdr) {
    jb_cons *c = jb_alloc(env, sizeof *c);
    c->h.type = JB_CONS; c->h.n = 0; c->head = car; c->tail = cdr;
    return (ERL_NIF_TERM)(uintptr_t)c;
}
ERL_NIF_TERM enif_make_list_from_array(ErlNifEnv *env, const ERL_NIF_TERM arr[], unsigned cnt) {
    ERL_NIF_TERM l = JB_NIL;
    for (unsigned i = cnt; i > 0; i--) l = enif_make_list_cell(env, arr[i - 1], l);
    return l;
}
ERL_NIF_TERM enif_make_list(ErlNifEnv *env, unsigned cnt, ...) {
    ERL_NIF_TERM small[16], *a = cnt <= 16 ? small : malloc(cnt * sizeof(ERL_NIF_TERM));
    va_list ap; va_start(ap, cnt);
    for (unsigned i = 0; i < cnt; i++) a[i] = va_arg(ap, ERL_NIF_TERM);
    va_end(ap);
    ERL_NIF_TERM l = enif_make_list_from_array(env, a, cnt);
    if (a != small) free(a);
    return l;
}
int enif_get_list_cell(ErlNifEnv *e, ERL_NIF_TERM t, ERL_NIF_TERM *head, ERL_NIF_TERM *tail) {
    (void)e;
    if (jb_box_type(t) != JB_CONS) return 0;
    jb_cons *c = (jb_cons *)jb_box(t);
    *head = c->head; *tail = c->tail;
    return 1;
}
int enif_get_list_length(ErlNifEnv *e, ERL_NIF_TERM t, unsigned *len) {
    (void)e;
    unsigned n = 0;
    while (jb_box_type(t) == JB_CONS) { n++; t = ((jb_cons *)jb_box(t))->tail; }
    if (t != JB_NIL) return 0;
    *len = n;
    return 1;
}
int enif_make_reverse_list(ErlNifEnv *env, ERL_NIF_TERM t, ERL_NIF_TERM *list) {
    ERL_NIF_TERM r = JB_NIL;
    while (jb_box_type(t) == JB_CONS) { jb_cons *c = (jb_cons *)jb_box(t); r = enif_make_list_cell(env, c->head, r); t = c->tail; }
    if (t != JB_NIL) return 0;
    *list = r;
    return 1;
}
ERL_NIF_TERM enif_make_string_len(ErlNifEnv *env, const char *s, size_t len, ErlNifCharEncoding enc) {
    (void)enc;
    ERL_NIF_TERM l = JB_NIL;
    for (size_t i = len; i > 0; i--) l = enif_make_list_cell(env, jb_make_small((unsigned char)s[i - 1]), l);
    return l;
}
ERL_NIF_TERM enif_make_string(ErlNifEnv *env, const char *s, ErlNifCharEncoding enc) { return enif_make_string_len(env, s, strlen(s), enc); }
int enif_get_string(ErlNifEnv *e, ERL_NIF_TERM t, char *buf, unsigned len, ErlNifCharEncoding enc) {
    (void)e; (void)enc;
    if (len == 0) return 0;
    unsigned n = 0;
    while (jb_box_type(t) == JB_CONS) {
        jb_cons *c = (jb_cons *)jb_box(t);
        if (!jb_is_small(c->head) || jb_small_val(c->head) < 0 || jb_small_val(c->head) > 255) return 0;
        if (n + 1 >= len) { buf[n] = 0; return -(int)len; }
        buf[n++] = (char)jb_small_val(c->head);
        t = c->tail;
    }
    if (t != JB_NIL) return 0;
    buf[n] = 0;
    return (int)n + 1;
}

/* ---- maps (flat, keys sorted in term order) ---- */
ERL_NIF_TERM jb_make_map(ErlNifEnv *env, size_t n, ERL_NIF_TERM **keys, ERL_NIF_TERM **vals) {
    jb_map *m = jb_alloc(env, sizeof(jb_map) + 2 * n * sizeof(ERL_NIF_TERM));
    m->h.type = JB_MAP; m->h.n = (uint32_t)n;
    m->keys = (ERL_NIF_TERM *)(m + 1); m->vals = m->keys + n;
    *keys = m->keys; *vals = m->vals;
    return (ERL_NIF_TERM)(uintptr_t)m;
}
static jb_map *as_map(ERL_NIF_TERM t) { return jb_box_type(t) == JB_MAP ? (jb_map *)jb_box(t) : NULL; }
/* index of key, or -(insertion point) - 1 */
static long map_find(jb_map *m, ERL_NIF_TERM key) {
    long lo = 0, hi = (long)m->h.n - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        int c = jb_compare(m->keys[mid], key);
        if (c == 0) {
            /* term order equates 1 and 1.0; map keys must match exactly */
            if (enif_is_identical(m->keys[mid], key)) return mid;
            c = jb_box_type(key) == JB_FLOAT ? -1 : 1;   /* integers before floats */
        }
        if (c < 0) lo = mid + 1; else hi = mid - 1;
    }
    return -(lo + 1);
}
ERL_NIF_TERM enif_make_new_map(ErlNifEnv *env) { ERL_NIF_TERM *k, *v; return jb_make_map(env, 0, &k, &v); }
int enif_is_map(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return as_map(t) != NULL; }
int enif_get_map_size(ErlNifEnv *e, ERL_NIF_TERM t, size_t *size) { (void)e; jb_map *m = as_map(t); if (!m) return 0; *size = m->h.n; return 1; }
int enif_get_map_value(ErlNifEnv *e, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM *value) {
    (void)e; jb_map *m = as_map(map); if (!m) return 0;
    long i = map_find(m, key); if (i < 0) return 0;
    *value = m->vals[i]; return 1;
}
int enif_make_map_put(ErlNifEnv *env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM *out) {
    jb_map *m = as_map(map_in); if (!m) return 0;
    long i = map_find(m, key);
    size_t n = m->h.n;
    ERL_NIF_TERM *k, *v;
    if (i >= 0) {
        *out = jb_make_map(env, n, &k, &v);
        memcpy(k, m->keys, n * sizeof *k); memcpy(v, m->vals, n * sizeof *v);
        v[i] = value;
        return 1;
    }
    size_t ins = (size_t)(-i - 1);
    *out = jb_make_map(env, n + 1, &k, &v);
    memcpy(k, m->keys, ins * sizeof *k); memcpy(v, m->vals, ins * sizeof *v);
    k[ins] = key; v[ins] = value;
    memcpy(k + ins + 1, m->keys + ins, (n - ins) * sizeof *k); memcpy(v + ins + 1, m->vals + ins, (n - ins) * sizeof *v);
    return 1;
}
int enif_make_map_update(ErlNifEnv *env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM *out) {
    jb_map *m = as_map(map_in); if (!m || map_find(m, key) < 0) return 0;
    return enif_make_map_put(env, map_in, key, value, out);
}
int enif_make_map_remove(ErlNifEnv *env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM *out) {
    jb_map *m = as_map(map_in); if (!m) return 0;
    long i = map_find(m, key);
    if (i < 0) { *out = map_in; return 1; }
    size_t n = m->h.n;
    ERL_NIF_TERM *k, *v;
    *out = jb_make_map(env, n - 1, &k, &v);
    memcpy(k, m->keys, (size_t)i * sizeof *k); memcpy(v, m->vals, (size_t)i * sizeof *v);
    memcpy(k + i, m->keys + i + 1, (n - i - 1) * sizeof *k); memcpy(v + i, m->vals + i + 1, (n - i - 1) * sizeof *v);
    return 1;
}
int enif_make_map_from_arrays(ErlNifEnv *env, ERL_NIF_TERM keys[], ERL_NIF_TERM values[], size_t cnt, ERL_NIF_TERM *out) {
    ERL_NIF_TERM m = enif_make_new_map(env);
    for (size_t i = 0; i < cnt; i++) {
        jb_map *mm = as_map(m);
        if (map_find(mm, keys[i]) >= 0) return 0;   /* duplicate keys */
        enif_make_map_put(env, m, keys[i], values[i], &m);
    }
    *out = m;
    return 1;
}
int enif_map_iterator_create(ErlNifEnv *e, ERL_NIF_TERM map, ErlNifMapIterator *it, ErlNifMapIteratorEntry entry) {
    (void)e; jb_map *m = as_map(map); if (!m) return 0;
    it->map = map; it->size = m->h.n;
    it->idx = entry == ERL_NIF_MAP_ITERATOR_LAST ? m->h.n : 1;   /* idx is 1-based; 0 = before head, size+1 = after tail */
    it->u.flat.ks = m->keys; it->u.flat.vs = m->vals;
    return 1;
}
void enif_map_iterator_destroy(ErlNifEnv *e, ErlNifMapIterator *it) { (void)e; (void)it; }
int enif_map_iterator_is_head(ErlNifEnv *e, ErlNifMapIterator *it) { (void)e; return it->idx == 0; }
int enif_map_iterator_is_tail(ErlNifEnv *e, ErlNifMapIterator *it) { (void)e; return it->idx > it->size; }
int enif_map_iterator_next(ErlNifEnv *e, ErlNifMapIterator *it) {
    (void)e; if (it->idx > it->size) return 0;
    it->idx++; return it->idx <= it->size;
}
int enif_map_iterator_prev(ErlNifEnv *e, ErlNifMapIterator *it) {
    (void)e; if (it->idx == 0) return 0;
    it->idx--; return it->idx > 0;
}
int enif_map_iterator_get_pair(ErlNifEnv *e, ErlNifMapIterator *it, ERL_NIF_TERM *key, ERL_NIF_TERM *value) {
    (void)e; if (it->idx == 0 || it->idx > it->size) return 0;
    *key = it->u.flat.ks[it->idx - 1]; *value = it->u.flat.vs[it->idx - 1];
    return 1;
}

/* ---- type tests ---- */
int enif_is_atom(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_is_atom(t); }
int enif_is_binary(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_box_type(t) == JB_BIN; }
int enif_is_ref(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_opaque_kind(t) == JB_OPQ_REF || jb_box_type(t) == JB_RES; }
int enif_is_fun(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_opaque_kind(t) == JB_OPQ_FUN; }
int enif_is_pid(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_opaque_kind(t) == JB_OPQ_PID; }
int enif_is_port(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_opaque_kind(t) == JB_OPQ_PORT; }
int enif_is_list(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return t == JB_NIL || jb_box_type(t) == JB_CONS; }
int enif_is_tuple(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return jb_box_type(t) == JB_TUPLE; }
int enif_is_empty_list(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return t == JB_NIL; }
int enif_is_number(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; int b = jb_box_type(t); return jb_is_small(t) || b == JB_BIG || b == JB_FLOAT; }
int enif_is_exception(ErlNifEnv *e, ERL_NIF_TERM t) { (void)e; return t == JB_NONVALUE; }

ErlNifTermType enif_term_type(ErlNifEnv *e, ERL_NIF_TERM t) {
    (void)e;
    if (jb_is_small(t)) return ERL_NIF_TERM_TYPE_INTEGER;
    if (jb_is_atom(t)) return ERL_NIF_TERM_TYPE_ATOM;
    if (t == JB_NIL) return ERL_NIF_TERM_TYPE_LIST;
    switch (jb_opaque_kind(t)) {
    case JB_OPQ_PID: return ERL_NIF_TERM_TYPE_PID;
    case JB_OPQ_PORT: return ERL_NIF_TERM_TYPE_PORT;
    case JB_OPQ_REF: return ERL_NIF_TERM_TYPE_REFERENCE;
    case JB_OPQ_FUN: return ERL_NIF_TERM_TYPE_FUN;
    }
    switch (jb_box_type(t)) {
    case JB_TUPLE: return ERL_NIF_TERM_TYPE_TUPLE;
    case JB_CONS: return ERL_NIF_TERM_TYPE_LIST;
    case JB_FLOAT: return ERL_NIF_TERM_TYPE_FLOAT;
    case JB_BIG: return ERL_NIF_TERM_TYPE_INTEGER;
    case JB_BIN: return ERL_NIF_TERM_TYPE_BITSTRING;
    case JB_MAP: return ERL_NIF_TERM_TYPE_MAP;
    case JB_RES: return ERL_NIF_TERM_TYPE_REFERENCE;
    }
    return ERL_NIF_TERM_TYPE__MISSING_DEFAULT_CASE__READ_THE_MANUAL;
}

/* ---- exceptions ---- */
ERL_NIF_TERM enif_make_badarg(ErlNifEnv *env) { env->exception = jb_atom("badarg"); return JB_NONVALUE; }
ERL_NIF_TERM enif_raise_exception(ErlNifEnv *env, ERL_NIF_TERM reason) { env->exception = reason; return JB_NONVALUE; }
int enif_has_pending_exception(ErlNifEnv *env, ERL_NIF_TERM *reason) {
    if (!env->exception) return 0;
    if (reason) *reason = env->exception;
    return 1;
}
