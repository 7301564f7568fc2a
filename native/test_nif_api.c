/* More of the erl_nif API for the test library (module jbeam_test_nif, linked with test_nif.c):
 * the functions no other test NIF calls, each reduced to a result that is the same in erts and
 * in jbeam (differential test jbeam_test_nif:api/0). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "erl_nif.h"

#define A(s) enif_make_atom(env, s)
#define I(v) enif_make_int(env, v)
#define KV(n, t) enif_make_tuple2(env, A(n), t)

ErlNifResourceType *jb_test_counter_type(void);

static int vsn(char *buf, size_t n, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    int r = enif_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}
static int vfp(FILE *f, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    int r = enif_vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}
static void *thread_body(void *arg) {
    ErlNifTid me = enif_thread_self();
    (void)enif_thread_name(me);
    enif_thread_exit((void *)((intptr_t)arg * 2));
    return NULL;
}
static ERL_NIF_TERM str(ErlNifEnv *env, const char *s) { return s ? enif_make_string(env, s, ERL_NIF_LATIN1) : A("null"); }

/* api(LibPathWithoutSo, DeadPid) */
ERL_NIF_TERM jb_test_api(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM out[24];
    int k = 0;
    (void)argc;
    ERL_NIF_TERM el[3] = { I(1), A("two"), enif_make_double(env, 3.0) };
    out[k++] = KV("tuple_from_array", enif_make_tuple_from_array(env, el, 3));

    ERL_NIF_TERM m = enif_make_new_map(env), m2;
    enif_make_map_put(env, m, A("a"), I(1), &m2);
    enif_make_map_put(env, m2, A("b"), I(2), &m);
    ErlNifMapIterator it;
    int h0 = -1, t0 = -1, t2 = -1, h2 = -1;
    if (enif_map_iterator_create(env, m, &it, ERL_NIF_MAP_ITERATOR_FIRST)) {
        h0 = enif_map_iterator_is_head(env, &it);
        t0 = enif_map_iterator_is_tail(env, &it);
        enif_map_iterator_next(env, &it);
        enif_map_iterator_next(env, &it);
        t2 = enif_map_iterator_is_tail(env, &it);
        enif_map_iterator_prev(env, &it);
        enif_map_iterator_prev(env, &it);
        enif_map_iterator_prev(env, &it);
        h2 = enif_map_iterator_is_head(env, &it);
        enif_map_iterator_destroy(env, &it);
    }
    out[k++] = KV("new_map", enif_make_tuple5(env, m, I(h0), I(t0), I(t2), I(h2)));

    ERL_NIF_TERM ea = 0, eb = 0;
    int e1 = enif_make_existing_atom(env, "ok", &ea, ERL_NIF_LATIN1);
    int e2 = enif_make_existing_atom(env, "jbeam_test_nif_never_an_atom", &eb, ERL_NIF_LATIN1);
    out[k++] = KV("existing_atom", enif_make_tuple3(env, I(e1), e1 ? ea : A("none"), I(e2)));

    ErlNifPid self, undef, dead;
    enif_self(env, &self);
    enif_set_pid_undefined(&undef);
    int got_dead = enif_get_local_pid(env, argv[1], &dead);
    out[k++] = KV("pids", enif_make_tuple5(env, I(enif_is_pid_undefined(&undef)), I(enif_is_pid_undefined(&self)),
                                           I(enif_is_process_alive(env, &self)), I(enif_is_current_process_alive(env)),
                                           I(got_dead && enif_is_process_alive(env, &dead))));

    ERL_NIF_TERM r1 = enif_make_ref(env), r2 = enif_make_ref(env);
    ERL_NIF_TERM u1 = enif_make_unique_integer(env, ERL_NIF_UNIQUE_POSITIVE | ERL_NIF_UNIQUE_MONOTONIC);
    ERL_NIF_TERM u2 = enif_make_unique_integer(env, ERL_NIF_UNIQUE_POSITIVE | ERL_NIF_UNIQUE_MONOTONIC);
    ErlNifSInt64 l1 = 0, l2 = 0;
    enif_get_int64(env, u1, &l1);
    enif_get_int64(env, u2, &l2);
    out[k++] = KV("refs", enif_make_tuple5(env, I(enif_is_ref(env, r1)), I(enif_is_identical(r1, r2)),
                                           I(enif_compare(r1, r1) == 0), I(l1 > 0), I(l2 > l1)));

    long *res = enif_alloc_resource(jb_test_counter_type(), 3 * sizeof(long));
    res[0] = -1;   /* counter_dtor does not count it */
    size_t rsize = enif_sizeof_resource(res);
    ERL_NIF_TERM rbin = enif_make_resource_binary(env, res, "resource bytes", 14);
    enif_release_resource(res);
    out[k++] = KV("resource_binary", enif_make_tuple2(env, enif_make_uint64(env, rsize), rbin));

    ErlNifBinary b;
    enif_alloc_binary(5, &b);
    memcpy(b.data, "abcde", 5);
    enif_release_binary(&b);
    char *p = enif_alloc(4);
    memcpy(p, "abc", 4);
    p = enif_realloc(p, 4096);
    ERL_NIF_TERM ps = enif_make_string(env, p, ERL_NIF_LATIN1);
    enif_free(p);
    out[k++] = KV("realloc", ps);

    ErlNifMutex *mx = enif_mutex_create("jb_mutex");
    int mt = enif_mutex_trylock(mx);
    int mt2 = enif_mutex_trylock(mx);   /* held by this thread: EBUSY, not 0 */
    if (mt == 0) enif_mutex_unlock(mx);
    ERL_NIF_TERM mname = str(env, enif_mutex_name(mx));
    enif_mutex_destroy(mx);
    ErlNifRWLock *rw = enif_rwlock_create("jb_rwlock");
    int rr = enif_rwlock_tryrlock(rw);
    int rwr = enif_rwlock_tryrwlock(rw);   /* a reader holds it: busy */
    if (rr == 0) enif_rwlock_runlock(rw);
    int rw2 = enif_rwlock_tryrwlock(rw);
    if (rw2 == 0) enif_rwlock_rwunlock(rw);
    ERL_NIF_TERM rname = str(env, enif_rwlock_name(rw));
    enif_rwlock_destroy(rw);
    ErlNifCond *cd = enif_cond_create("jb_cond");
    enif_cond_signal(cd);
    ERL_NIF_TERM cname = str(env, enif_cond_name(cd));
    enif_cond_destroy(cd);
    out[k++] = KV("locks", enif_make_list7(env, I(mt), I(mt2 != 0), I(rr), I(rwr != 0), I(rw2), mname,
                                           enif_make_tuple2(env, rname, cname)));

    ErlNifTid tid;
    void *ret = NULL;
    int created = enif_thread_create("jb_thread", &tid, thread_body, (void *)(intptr_t)21, NULL);
    if (created == 0) enif_thread_join(tid, &ret);
    ErlNifTid me = enif_thread_self();
    out[k++] = KV("threads", enif_make_tuple3(env, I(created), I((int)(intptr_t)ret), I(enif_equal_tids(me, me) != 0)));

    ERL_NIF_TERM now = enif_now_time(env), cpu = enif_cpu_time(env);
    int arity = 0;
    const ERL_NIF_TERM *tv;
    enif_get_tuple(env, now, &arity, &tv);
    out[k++] = KV("time", enif_make_tuple3(env, I(arity), I(enif_is_tuple(env, cpu)),
                                           I(enif_time_offset(ERL_NIF_NSEC) != ERL_NIF_TIME_ERROR)));

    char buf[4096];
    size_t n = sizeof buf, n1 = 1, n2 = sizeof buf;
    int g0 = enif_getenv("PATH", buf, &n), g1 = enif_getenv("PATH", buf, &n1);
    int g2 = enif_getenv("JBEAM_TEST_NIF_NO_SUCH_VARIABLE", buf, &n2);
    out[k++] = KV("getenv", enif_make_tuple4(env, I(g0), I(n == strlen(buf)), I(g1), I(g2)));

    char pbuf[64];
    int pn = vsn(pbuf, sizeof pbuf, "%d-%s-%T", 7, "x", A("atom"));
    int fn = enif_fprintf(stderr, "%s", "") + vfp(stderr, "%s", "");
    out[k++] = KV("printf", enif_make_tuple3(env, I(pn), enif_make_string(env, pbuf, ERL_NIF_LATIN1), I(fn)));

    char path[1024];
    int dl = 0, sym = 0;
    if (enif_get_string(env, argv[0], path, sizeof path, ERL_NIF_LATIN1) > 0) {
        void *h = enif_dlopen(path, NULL, NULL);
        dl = h != NULL;
        sym = h != NULL && enif_dlsym(h, "nif_init", NULL, NULL) != NULL
              && enif_dlsym(h, "jbeam_no_such_symbol", NULL, NULL) == NULL;
    }
    out[k++] = KV("dl", enif_make_tuple2(env, I(dl), I(sym)));
    return enif_make_list_from_array(env, out, k);
}

/* exc(): enif_is_exception on the term enif_raise_exception returned (then returned itself) */
ERL_NIF_TERM jb_test_exc(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc; (void)argv;
    int plain = enif_is_exception(env, A("x"));
    ERL_NIF_TERM t = enif_raise_exception(env, enif_make_tuple2(env, A("is_exception"), I(plain)));
    return enif_is_exception(env, t) ? t : A("not_an_exception");
}
