/* The native atom table: names (UTF-8) by index, with a hash index for lookup by name.
 * Java maps its EAtoms to these indexes (org.jbeam.nif.NifAtoms); indexes never change. */
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

typedef struct { char *name; size_t len; } jb_atom_ent;
static jb_atom_ent *atoms; static uint32_t natoms, capatoms;
static uint32_t *hashtab; static uint32_t hashcap;   /* open addressing, value = ix + 1 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 16777619u; }
    return h;
}

static int find(const char *s, size_t n, uint32_t *ix) {
    if (!hashcap) return 0;
    for (uint32_t i = hash(s, n) & (hashcap - 1);; i = (i + 1) & (hashcap - 1)) {
        uint32_t v = hashtab[i];
        if (!v) return 0;
        jb_atom_ent *e = &atoms[v - 1];
        if (e->len == n && memcmp(e->name, s, n) == 0) { *ix = v - 1; return 1; }
    }
}

static void insert_hash(uint32_t ix) {
    jb_atom_ent *e = &atoms[ix];
    uint32_t i = hash(e->name, e->len) & (hashcap - 1);
    while (hashtab[i]) i = (i + 1) & (hashcap - 1);
    hashtab[i] = ix + 1;
}

int jb_atom_lookup(const char *s, size_t n, uint32_t *ix) {
    pthread_mutex_lock(&lock);
    int r = find(s, n, ix);
    pthread_mutex_unlock(&lock);
    return r;
}

uint32_t jb_atom_intern(const char *s, size_t n) {
    uint32_t ix;
    pthread_mutex_lock(&lock);
    if (find(s, n, &ix)) { pthread_mutex_unlock(&lock); return ix; }
    if (natoms == capatoms) {
        capatoms = capatoms ? capatoms * 2 : 1024;
        atoms = realloc(atoms, capatoms * sizeof *atoms);
    }
    if ((natoms + 1) * 2 > hashcap) {
        free(hashtab);
        hashcap = hashcap ? hashcap * 2 : 4096;
        hashtab = calloc(hashcap, sizeof *hashtab);
        for (uint32_t i = 0; i < natoms; i++) insert_hash(i);
    }
    char *copy = malloc(n + 1);
    memcpy(copy, s, n); copy[n] = 0;
    ix = natoms++;
    atoms[ix].name = copy; atoms[ix].len = n;
    insert_hash(ix);
    pthread_mutex_unlock(&lock);
    return ix;
}

const char *jb_atom_name(uint32_t ix, size_t *len) {
    pthread_mutex_lock(&lock);
    const char *r = NULL;
    if (ix < natoms) { r = atoms[ix].name; *len = atoms[ix].len; }
    pthread_mutex_unlock(&lock);
    return r;
}

ERL_NIF_TERM jb_atom(const char *s) { return jb_make_atom_ix(jb_atom_intern(s, strlen(s))); }

/* Latin-1 -> UTF-8 (names given to enif_make_atom are Latin-1). Returns bytes written. */
static size_t latin1_to_utf8(const char *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) out[o++] = (char)c;
        else { out[o++] = (char)(0xC0 | (c >> 6)); out[o++] = (char)(0x80 | (c & 0x3F)); }
    }
    return o;
}

ERL_NIF_TERM enif_make_atom_len(ErlNifEnv *env, const char *name, size_t len) {
    (void)env;
    if (len > 255) return enif_make_badarg(env);
    char buf[512];
    size_t n = latin1_to_utf8(name, len, buf);
    return jb_make_atom_ix(jb_atom_intern(buf, n));
}
ERL_NIF_TERM enif_make_atom(ErlNifEnv *env, const char *name) { return enif_make_atom_len(env, name, strlen(name)); }

int enif_make_existing_atom_len(ErlNifEnv *env, const char *name, size_t len, ERL_NIF_TERM *atom, ErlNifCharEncoding enc) {
    (void)env; (void)enc;
    if (len > 255) return 0;
    char buf[512];
    size_t n = latin1_to_utf8(name, len, buf);
    uint32_t ix;
    if (!jb_atom_lookup(buf, n, &ix)) {
        if (!jb_cb.atom_exists || !jb_cb.atom_exists(buf, n)) return 0;
        ix = jb_atom_intern(buf, n);
    }
    *atom = jb_make_atom_ix(ix);
    return 1;
}
int enif_make_existing_atom(ErlNifEnv *env, const char *name, ERL_NIF_TERM *atom, ErlNifCharEncoding enc) {
    return enif_make_existing_atom_len(env, name, strlen(name), atom, enc);
}

/* UTF-8 atom name as Latin-1; returns length or -1 when not representable. */
static int to_latin1(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned v;
        if (c < 0x80) v = c;
        else if ((c & 0xE0) == 0xC0 && i + 1 < n) { v = ((c & 0x1F) << 6) | ((unsigned char)s[++i] & 0x3F); if (v > 0xFF) return -1; }
        else return -1;
        if (out) { if (o >= cap) return -2; out[o] = (char)v; }
        o++;
    }
    return (int)o;
}

int enif_get_atom(ErlNifEnv *env, ERL_NIF_TERM t, char *buf, unsigned len, ErlNifCharEncoding enc) {
    (void)env; (void)enc;
    if (!jb_is_atom(t) || len == 0) return 0;
    size_t n; const char *s = jb_atom_name(jb_atom_index(t), &n);
    if (!s) return 0;
    int r = to_latin1(s, n, buf, len - 1);
    if (r < 0) return 0;
    buf[r] = 0;
    return r + 1;
}

int enif_get_atom_length(ErlNifEnv *env, ERL_NIF_TERM t, unsigned *len, ErlNifCharEncoding enc) {
    (void)env; (void)enc;
    if (!jb_is_atom(t)) return 0;
    size_t n; const char *s = jb_atom_name(jb_atom_index(t), &n);
    int r = s ? to_latin1(s, n, NULL, 0) : -1;
    if (r < 0) return 0;
    *len = (unsigned)r;
    return 1;
}

/* ---- exported for Java ---- */
uint32_t jbeam_atom_intern(const char *utf8, size_t len) { return jb_atom_intern(utf8, len); }
const char *jbeam_atom_name(uint32_t ix, size_t *len) { return jb_atom_name(ix, len); }
