/* enif_select: readiness of NIF-managed file descriptors. One epoll poller thread (started on
 * first use) watches the registered fds one-shot per direction; when a direction becomes ready
 * its message goes to the registered process: {select, Resource, Ref, ready_input|ready_output}
 * (ready_error for ERL_NIF_SELECT_ERROR), or the custom message of enif_select_x. A registration
 * keeps its resource alive until ERL_NIF_SELECT_STOP, which calls the type's stop callback
 * directly (the lock orders it after any event being delivered). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include "nif_internal.h"

enum { DIR_READ, DIR_WRITE, DIR_ERROR, NDIR };
typedef struct { int active; ERL_NIF_TERM pid; ErlNifEnv *msg_env; ERL_NIF_TERM msg; int custom; } dir_t;
typedef struct { jb_resource *res; dir_t d[NDIR]; } reg_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ep = -1;
static reg_t **regs;          /* by fd */
static int nregs;

static jb_resource *hdr_of(void *obj) { return (jb_resource *)((unsigned char *)obj - offsetof(jb_resource, data)); }

static uint32_t mask_of(reg_t *r) {
    uint32_t m = 0;
    if (r->d[DIR_READ].active) m |= EPOLLIN;
    if (r->d[DIR_WRITE].active) m |= EPOLLOUT;
    if (r->d[DIR_ERROR].active) m |= EPOLLERR;
    return m;
}

static void clear_dir(dir_t *d) {
    if (d->msg_env) enif_free_env(d->msg_env);
    memset(d, 0, sizeof *d);
}

/* Builds and sends the ready message of direction k of the fd's registration. */
static void deliver(reg_t *r, int k) {
    dir_t *d = &r->d[k];
    ErlNifEnv *e = d->msg_env;
    ERL_NIF_TERM msg = d->msg;
    if (!d->custom) {
        static const char *what[NDIR] = { "ready_input", "ready_output", "ready_error" };
        msg = enif_make_tuple4(e, jb_atom("select"), enif_make_resource(e, r->res->data), msg, jb_atom(what[k]));
    }
    ErlNifPid to = { d->pid };
    enif_send(NULL, &to, NULL, msg);   /* serialized (and the resource kept by Java) before return */
    clear_dir(d);
}

static void *poller(void *arg) {
    (void)arg;
    struct epoll_event evs[32];
    for (;;) {
        int n = epoll_wait(ep, evs, 32, -1);
        if (n < 0) { if (errno == EINTR) continue; return NULL; }
        pthread_mutex_lock(&lock);
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            reg_t *r = fd < nregs ? regs[fd] : NULL;
            if (!r) continue;
            uint32_t ev = evs[i].events;
            if (r->d[DIR_READ].active && (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))) deliver(r, DIR_READ);
            if (r->d[DIR_WRITE].active && (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR))) deliver(r, DIR_WRITE);
            if (r->d[DIR_ERROR].active && (ev & EPOLLERR)) deliver(r, DIR_ERROR);
            uint32_t m = mask_of(r);
            if (m) { struct epoll_event e = { m | EPOLLONESHOT, { .fd = fd } }; epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e); }
        }
        pthread_mutex_unlock(&lock);
    }
}

static int ensure_poller(void) {
    if (ep >= 0) return 1;
    ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) return 0;
    pthread_t t; pthread_attr_t a;
    pthread_attr_init(&a); pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int ok = pthread_create(&t, &a, poller, NULL) == 0;
    pthread_attr_destroy(&a);
    return ok;
}

static void unregister(int fd, reg_t *r) {
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
    for (int k = 0; k < NDIR; k++) clear_dir(&r->d[k]);
    regs[fd] = NULL;
}

int enif_select_x(ErlNifEnv *env, ErlNifEvent fd, enum ErlNifSelectFlags mode, void *obj, const ErlNifPid *pid,
                  ERL_NIF_TERM msg, ErlNifEnv *msg_env) {
    if (fd < 0) return ERL_NIF_SELECT_INVALID_EVENT;
    jb_resource *res = hdr_of(obj);
    pthread_mutex_lock(&lock);
    if (!ensure_poller()) { pthread_mutex_unlock(&lock); return ERL_NIF_SELECT_FAILED; }
    if (fd >= nregs) {
        int n = nregs ? nregs : 64;
        while (n <= fd) n *= 2;
        regs = realloc(regs, (size_t)n * sizeof *regs);
        memset(regs + nregs, 0, (size_t)(n - nregs) * sizeof *regs);
        nregs = n;
    }
    reg_t *r = regs[fd];
    int result = 0;
    if (mode & ERL_NIF_SELECT_STOP) {
        if (r) {
            unregister(fd, r);
            jb_resource *owner = r->res;
            free(r);
            pthread_mutex_unlock(&lock);
            if (owner->type && owner->type->init.stop) {
                ErlNifEnv se; memset(&se, 0, sizeof se);
                se.privp = owner->type->privp;
                owner->type->init.stop(&se, owner->data, fd, 1);
                enif_clear_env(&se);
                free(se.chunks); free(se.bufs); free(se.ress); free(se.out);
            }
            jb_resource_release(owner);
            return ERL_NIF_SELECT_STOP_CALLED;
        }
        pthread_mutex_unlock(&lock);
        if (res->type && res->type->init.stop) {   /* never selected: stop is still called, as erts does */
            ErlNifEnv se; memset(&se, 0, sizeof se);
            se.privp = res->type->privp;
            res->type->init.stop(&se, obj, fd, 1);
            enif_clear_env(&se);
            free(se.chunks); free(se.bufs); free(se.ress); free(se.out);
        }
        return ERL_NIF_SELECT_STOP_CALLED;
    }
    if (r && r->res != res) { pthread_mutex_unlock(&lock); return ERL_NIF_SELECT_INVALID_EVENT; }
    int dirs[NDIR], nd = 0;
    if (mode & ERL_NIF_SELECT_READ) dirs[nd++] = DIR_READ;
    if (mode & ERL_NIF_SELECT_WRITE) dirs[nd++] = DIR_WRITE;
    if (mode & ERL_NIF_SELECT_ERROR) dirs[nd++] = DIR_ERROR;
    if (mode & ERL_NIF_SELECT_CANCEL) {
        static const int flag[NDIR] = { ERL_NIF_SELECT_READ_CANCELLED, ERL_NIF_SELECT_WRITE_CANCELLED, ERL_NIF_SELECT_ERROR_CANCELLED };
        for (int i = 0; r && i < nd; i++) if (r->d[dirs[i]].active) { clear_dir(&r->d[dirs[i]]); result |= flag[dirs[i]]; }
        if (r) {
            uint32_t m = mask_of(r);
            struct epoll_event e = { m | EPOLLONESHOT, { .fd = fd } };
            epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
        }
        pthread_mutex_unlock(&lock);
        return result;
    }
    int fresh = r == NULL;
    if (fresh) {
        r = calloc(1, sizeof *r);
        r->res = res;
        __atomic_add_fetch(&res->refc, 1, __ATOMIC_ACQ_REL);   /* kept until STOP */
        regs[fd] = r;
    }
    ERL_NIF_TERM to = pid ? pid->pid : (env ? env->self : 0);
    for (int i = 0; i < nd; i++) {
        dir_t *d = &r->d[dirs[i]];
        clear_dir(d);
        d->active = 1; d->pid = to;
        d->custom = (mode & ERL_NIF_SELECT_CUSTOM_MSG) != 0;
        d->msg_env = enif_alloc_env();
        d->msg = jb_copy(d->msg_env, msg);
    }
    (void)msg_env;   /* the message is copied: the caller's msg_env stays the caller's */
    struct epoll_event e = { mask_of(r) | EPOLLONESHOT, { .fd = fd } };
    if (epoll_ctl(ep, fresh ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &e) < 0) {
        int err = errno;
        if (fresh) { unregister(fd, r); free(r); jb_resource_release(res); }
        pthread_mutex_unlock(&lock);
        /* erts accepts a closed descriptor here too (its poller drops it later): no event ever comes */
        return err == EBADF ? 0 : err == EPERM ? ERL_NIF_SELECT_INVALID_EVENT : ERL_NIF_SELECT_FAILED;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

int enif_select(ErlNifEnv *env, ErlNifEvent e, enum ErlNifSelectFlags flags, void *obj, const ErlNifPid *pid, ERL_NIF_TERM ref) {
    return enif_select_x(env, e, flags & ~ERL_NIF_SELECT_CUSTOM_MSG, obj, pid, ref, NULL);
}
