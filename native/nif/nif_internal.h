/* Internal representation of terms and environments in jbeam's erl_nif layer
 * (see docs/adr/0006-nif-term-encoding.md).
 *
 * ERL_NIF_TERM is a tagged 64-bit word:
 *   ...00  pointer to a box in an environment's arena (0 = THE_NON_VALUE)
 *   ...01  small integer, value = (int64)t >> 2 (62-bit signed)
 *   ...001011  atom, index into the native atom table = t >> 6 (erts' own atom tag: NIFs test
 *          it with bit operations, e.g. crypto's `p->type.atom & (p->type.atom != atom_false)`
 *          loops need bit 0 set)
 *   ...11  otherwise special: NIL (0x3), SCHEDULED (0x13), or an opaque Java term
 *          (pid/port/ref/fun: (id << 8) | (kind << 4) | 3, id into Java's opaque table)
 * Boxes: tuple, cons, float, bignum, binary, map, resource (see jb_box). */
#ifndef JBEAM_NIF_INTERNAL_H
#define JBEAM_NIF_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include "erl_nif.h"

#define JB_NONVALUE ((ERL_NIF_TERM)0)
#define JB_NIL ((ERL_NIF_TERM)0x3)
#define JB_SCHEDULED ((ERL_NIF_TERM)0x13)
#define JB_SMALL_MAX (((int64_t)1 << 61) - 1)
#define JB_SMALL_MIN (-((int64_t)1 << 61))

enum { JB_OPQ_PID = 1, JB_OPQ_PORT = 2, JB_OPQ_REF = 3, JB_OPQ_FUN = 4 };
enum { JB_TUPLE = 1, JB_CONS, JB_FLOAT, JB_BIG, JB_BIN, JB_MAP, JB_RES };

static inline int jb_is_box(ERL_NIF_TERM t) { return t != 0 && (t & 3) == 0; }
static inline int jb_is_small(ERL_NIF_TERM t) { return (t & 3) == 1; }
static inline int jb_is_atom(ERL_NIF_TERM t) { return (t & 0x3F) == 0x0B; }
static inline int64_t jb_small_val(ERL_NIF_TERM t) { return (int64_t)t >> 2; }
static inline ERL_NIF_TERM jb_make_small(int64_t v) { return ((ERL_NIF_TERM)v << 2) | 1; }
static inline uint32_t jb_atom_index(ERL_NIF_TERM t) { return (uint32_t)(t >> 6); }
static inline ERL_NIF_TERM jb_make_atom_ix(uint32_t ix) { return ((ERL_NIF_TERM)ix << 6) | 0x0B; }
static inline int jb_opaque_kind(ERL_NIF_TERM t) { return ((t & 0xF) == 3 && t > 0xFF) ? (int)((t >> 4) & 0xF) : 0; }
static inline uint64_t jb_opaque_id(ERL_NIF_TERM t) { return t >> 8; }
static inline ERL_NIF_TERM jb_make_opaque(int kind, uint64_t id) { return (id << 8) | ((ERL_NIF_TERM)kind << 4) | 3; }

/* A refcounted binary buffer (enif_alloc_binary; owner of binaries built from it). */
typedef struct jb_binbuf { long refc; size_t size; unsigned char data[]; } jb_binbuf;
/* A resource object; the user's data follows the header. */
typedef struct jb_resource {
    long refc; ErlNifResourceType *type; size_t size;
    long monitors;              /* monitors ever created from it: 0 = no need to ask Java to drop any */
    uint64_t java_id;           /* 1 + the slot of its resource term (NifResources), 0 = none yet; only Java touches it */
    uint64_t pad;               /* keeps data 16-byte aligned */
    unsigned char data[];
} jb_resource;

typedef struct jb_box { uint32_t type; uint32_t n; } jb_hdr;
typedef struct { jb_hdr h; ERL_NIF_TERM el[]; } jb_tuple;          /* h.n = arity */
typedef struct { jb_hdr h; ERL_NIF_TERM head, tail; } jb_cons;
typedef struct { jb_hdr h; double d; } jb_float;
typedef struct { jb_hdr h; int neg; unsigned char mag[]; } jb_big;  /* h.n = bytes, little-endian */
typedef struct { jb_hdr h; size_t size; unsigned char *data; jb_binbuf *owner; } jb_bin;
typedef struct { jb_hdr h; ERL_NIF_TERM *keys, *vals; } jb_map;     /* h.n = size, keys sorted by jb_compare */
typedef struct { jb_hdr h; jb_resource *res; } jb_res;

static inline jb_hdr *jb_box(ERL_NIF_TERM t) { return (jb_hdr *)(uintptr_t)t; }
static inline int jb_box_type(ERL_NIF_TERM t) { return jb_is_box(t) ? (int)jb_box(t)->type : 0; }

struct enif_resource_type_t {
    char *name;
    ErlNifResourceTypeInit init;
    void **privp;               /* the owning library's priv_data slot, for destructor envs */
    const char *owner;          /* the module of the library that created it (enif_dynamic_resource_call), or NULL */
    char *short_name;           /* name_str as given */
    struct enif_resource_type_t *next;
};

/* An arena chunk. */
typedef struct jb_chunk { struct jb_chunk *next; size_t size, used, pad; unsigned char mem[]; } jb_chunk;

struct enif_environment_t {
    jb_chunk *chunks;
    void **privp;               /* the library's priv_data slot (NULL for process-independent envs) */
    ERL_NIF_TERM self;          /* calling process pid (opaque) or 0 */
    ERL_NIF_TERM exception;     /* pending exception reason, 0 = none */
    jb_binbuf **bufs; size_t nbufs, capbufs;         /* binary buffers to release on clear */
    jb_resource **ress; size_t nress, capress;        /* resources to release on clear */
    /* scheduled NIF (enif_schedule_nif): run by jbeam_call's loop */
    ERL_NIF_TERM (*sched_fp)(ErlNifEnv *, int, const ERL_NIF_TERM[]);
    int sched_argc; ERL_NIF_TERM *sched_argv; int sched_flags;
    unsigned char *out; size_t outlen, outcap;        /* serialized result */
    int busy;
    int ser_keep;
    const unsigned char *heap_lo, *heap_hi;   /* a Java array the call's terms may point into (jbeam_call_heap) */               /* serializing a result for Java: each resource in it gets a reference Java adopts */
};

/* arena / env (nif_env.c) */
void *jb_alloc(ErlNifEnv *env, size_t n);
void jb_env_own_buf(ErlNifEnv *env, jb_binbuf *b);
void jb_env_own_res(ErlNifEnv *env, jb_resource *r);
ErlNifEnv *jb_env_new(void);
/* atoms (nif_atom.c) */
uint32_t jb_atom_intern(const char *utf8, size_t len);
int jb_atom_lookup(const char *utf8, size_t len, uint32_t *ix);
const char *jb_atom_name(uint32_t ix, size_t *len);
ERL_NIF_TERM jb_atom(const char *s);
/* terms (nif_make.c, nif_compare.c) */
ERL_NIF_TERM jb_make_big(ErlNifEnv *env, int neg, const unsigned char *mag, size_t n);
ERL_NIF_TERM jb_make_i64(ErlNifEnv *env, int64_t v);
ERL_NIF_TERM jb_make_u64(ErlNifEnv *env, uint64_t v);
ERL_NIF_TERM jb_make_bin(ErlNifEnv *env, const unsigned char *data, size_t size, jb_binbuf *owner);
ERL_NIF_TERM jb_make_map(ErlNifEnv *env, size_t n, ERL_NIF_TERM **keys, ERL_NIF_TERM **vals);
int jb_compare(ERL_NIF_TERM a, ERL_NIF_TERM b);
ERL_NIF_TERM jb_copy(ErlNifEnv *dst, ERL_NIF_TERM t);
int jb_print(char *buf, size_t size, ERL_NIF_TERM t);
/* resources (nif_resource.c) */
void jb_resource_release(jb_resource *r);
/* Java callbacks (nif_codec.c) */
typedef struct {
    int (*atom_exists)(const char *utf8, size_t len);   /* 1 if Java's atom table has it */
    int (*send)(uint64_t pid_id, const unsigned char *msg, size_t len);
    uint64_t (*make_ref)(void);                          /* new opaque ref id */
    /* enif_monitor_process: 0 = monitoring (mon_id = opaque id of the monitor's ref), 1 = not alive */
    int (*monitor)(void *res, uint64_t pid_id, uint64_t *mon_id);
    int (*demonitor)(uint64_t mon_id);                   /* 0 = removed, 1 = no such active monitor */
    void (*demonitor_all)(void *res);                    /* the resource is being destructed */
    /* external term format, both ways through the flat encoding; buffers malloc'd (jbeam_malloc), 0 = ok */
    int (*to_etf)(const unsigned char *flat, size_t len, unsigned char **etf, size_t *etflen);
    int (*from_etf)(const unsigned char *etf, size_t len, int safe, unsigned char **flat, size_t *flatlen, size_t *used);
    int (*whereis)(uint32_t atom_ix, uint64_t *id);      /* 1 = a registered process, 2 = a registered port (id = its opaque id) */
    /* enif_port_command: the message (flat) as the port's command from the calling process; 1 = done */
    int (*port_command)(uint64_t port_id, uint64_t caller_pid_id, const unsigned char *flat, size_t len);
    int (*port_alive)(uint64_t port_id);                 /* 1 = an open port, or a live local process (a pid's id) */
    uint64_t (*phash2)(const unsigned char *flat, size_t len);   /* erlang:phash2/1 */
} jb_callbacks;
extern jb_callbacks jb_cb;
int jb_serialize(ErlNifEnv *env, ERL_NIF_TERM t);      /* into env->out */
int jb_deserialize(ErlNifEnv *env, const unsigned char *in, size_t len, ERL_NIF_TERM *t);   /* binaries point into in */
#endif
