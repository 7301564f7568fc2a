/* I/O queues (enif_ioq_*) and iovecs (enif_inspect_iovec). The queue copies what it is given
 * (erts shares refcounted binaries instead; the observable behaviour is the same): a FIFO of
 * malloc'd segments with a consumed offset on the head one. enif_ioq_peek's vector lives in the
 * queue until it is next changed. Iovecs from enif_inspect_iovec live in the env's arena and
 * (or the caller's struct) point at the binaries' data, so enif_free_iovec has nothing to free. */
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

typedef struct { unsigned char *mem; size_t off, len; } seg_t;
struct erts_io_queue { seg_t *segs; size_t head, n, cap; size_t size; SysIOVec *peek; size_t peekcap; };

ErlNifIOQueue *enif_ioq_create(ErlNifIOQueueOpts opts) {
    if (opts != ERL_NIF_IOQ_NORMAL) return NULL;
    return calloc(1, sizeof(ErlNifIOQueue));
}

void enif_ioq_destroy(ErlNifIOQueue *q) {
    if (!q) return;
    for (size_t i = q->head; i < q->n; i++) free(q->segs[i].mem);
    free(q->segs); free(q->peek); free(q);
}

static void push(ErlNifIOQueue *q, const unsigned char *data, size_t len) {
    if (len == 0) return;
    if (q->n == q->cap) {
        if (q->head > 0) {   /* slide down before growing */
            memmove(q->segs, q->segs + q->head, (q->n - q->head) * sizeof *q->segs);
            q->n -= q->head; q->head = 0;
        }
        if (q->n == q->cap) { q->cap = q->cap ? q->cap * 2 : 8; q->segs = realloc(q->segs, q->cap * sizeof *q->segs); }
    }
    unsigned char *m = malloc(len);
    memcpy(m, data, len);
    q->segs[q->n++] = (seg_t){ m, 0, len };
    q->size += len;
}

int enif_ioq_enq_binary(ErlNifIOQueue *q, ErlNifBinary *bin, size_t skip) {
    if (skip > bin->size) return 0;
    push(q, bin->data + skip, bin->size - skip);
    enif_release_binary(bin);   /* the queue owns the binary now */
    return 1;
}

int enif_ioq_enqv(ErlNifIOQueue *q, ErlNifIOVec *iov, size_t skip) {
    if (skip > iov->size) return 0;
    for (int i = 0; i < iov->iovcnt; i++) {
        size_t l = iov->iov[i].iov_len;
        if (skip >= l) { skip -= l; continue; }
        push(q, (unsigned char *)iov->iov[i].iov_base + skip, l - skip);
        skip = 0;
    }
    return 1;
}

size_t enif_ioq_size(ErlNifIOQueue *q) { return q->size; }

int enif_ioq_deq(ErlNifIOQueue *q, size_t count, size_t *size) {
    if (count > q->size) return 0;
    q->size -= count;
    while (count > 0) {
        seg_t *s = &q->segs[q->head];
        size_t avail = s->len - s->off;
        if (count < avail) { s->off += count; break; }
        count -= avail;
        free(s->mem);
        q->head++;
    }
    if (q->head == q->n) q->head = q->n = 0;
    if (size) *size = q->size;
    return 1;
}

SysIOVec *enif_ioq_peek(ErlNifIOQueue *q, int *iovlen) {
    size_t n = q->n - q->head;
    if (n > q->peekcap) { q->peekcap = n; q->peek = realloc(q->peek, n * sizeof *q->peek); }
    for (size_t i = 0; i < n; i++) {
        seg_t *s = &q->segs[q->head + i];
        q->peek[i].iov_base = (char *)(s->mem + s->off);
        q->peek[i].iov_len = s->len - s->off;
    }
    if (iovlen) *iovlen = (int)n;
    return n ? q->peek : NULL;
}

int enif_ioq_peek_head(ErlNifEnv *env, ErlNifIOQueue *q, size_t *size, ERL_NIF_TERM *head) {
    if (q->head == q->n) return 0;
    seg_t *s = &q->segs[q->head];
    size_t len = s->len - s->off;
    unsigned char *p = enif_make_new_binary(env, len, head);
    memcpy(p, s->mem + s->off, len);
    if (size) *size = len;
    return 1;
}

int enif_inspect_iovec(ErlNifEnv *env, size_t max_length, ERL_NIF_TERM list, ERL_NIF_TERM *tail, ErlNifIOVec **iovec) {
    /* count the leading binaries (at most max_length); anything else in them is badarg (0) */
    size_t n = 0, nonempty = 0;
    ERL_NIF_TERM t = list;
    while (n < max_length && jb_box_type(t) == JB_CONS) {
        ERL_NIF_TERM h = ((jb_cons *)jb_box(t))->head;
        if (jb_box_type(h) != JB_BIN) return 0;
        if (((jb_bin *)jb_box(h))->size) nonempty++;   /* empty binaries take no vector slot, as in erts */
        n++;
        t = ((jb_cons *)jb_box(t))->tail;
    }
    if (n < max_length && t != JB_NIL) return 0;   /* an improper list */
    /* as erts: a small vector goes into the caller's struct (*iovec, the documented
     * "ErlNifIOVec vec, *iovec = &vec;" pattern), a large one is allocated */
    ErlNifIOVec *v = (nonempty <= ERL_NIF_IOVEC_SIZE && *iovec) ? *iovec : jb_alloc(env, sizeof *v);
    memset(v, 0, sizeof *v);
    v->iov = nonempty <= ERL_NIF_IOVEC_SIZE ? v->small_iov : jb_alloc(env, nonempty * sizeof(SysIOVec));
    v->ref_bins = v->small_ref_bin;
    t = list;
    for (size_t i = 0; i < n; i++) {
        jb_bin *b = (jb_bin *)jb_box(((jb_cons *)jb_box(t))->head);
        if (b->size) {
            v->iov[v->iovcnt].iov_base = (char *)b->data;
            v->iov[v->iovcnt].iov_len = b->size;
            v->iovcnt++;
            v->size += b->size;
        }
        t = ((jb_cons *)jb_box(t))->tail;
    }
    *tail = t;
    *iovec = v;
    return 1;
}

void enif_free_iovec(ErlNifIOVec *iov) { (void)iov; }
