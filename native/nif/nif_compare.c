/* Term order (enif_compare, enif_is_identical) and a ~w-style printer for enif_snprintf's %T. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nif_internal.h"

/* OTP type rank: number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring */
static int rank(ERL_NIF_TERM t) {
    if (jb_is_small(t)) return 0;
    if (jb_is_atom(t)) return 1;
    if (t == JB_NIL) return 8;
    switch (jb_opaque_kind(t)) { case JB_OPQ_REF: return 2; case JB_OPQ_FUN: return 3; case JB_OPQ_PORT: return 4; case JB_OPQ_PID: return 5; }
    switch (jb_box_type(t)) {
    case JB_FLOAT: case JB_BIG: return 0;
    case JB_RES: return 2;
    case JB_TUPLE: return 6;
    case JB_MAP: return 7;
    case JB_CONS: return 9;
    case JB_BIN: return 10;
    }
    return 11;
}

static double big_to_double(jb_big *b) {
    double d = 0;
    for (uint32_t i = b->h.n; i > 0; i--) d = d * 256.0 + b->mag[i - 1];
    return b->neg ? -d : d;
}
static int cmp_big(jb_big *a, jb_big *b) {
    if (a->neg != b->neg) return a->neg ? -1 : 1;
    int s = a->neg ? -1 : 1;
    if (a->h.n != b->h.n) return a->h.n < b->h.n ? -s : s;
    for (uint32_t i = a->h.n; i > 0; i--)
        if (a->mag[i - 1] != b->mag[i - 1]) return a->mag[i - 1] < b->mag[i - 1] ? -s : s;
    return 0;
}
#define SGN(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

static int cmp_num(ERL_NIF_TERM a, ERL_NIF_TERM b, int exact) {
    int ta = jb_is_small(a) ? 0 : (int)jb_box(a)->type, tb = jb_is_small(b) ? 0 : (int)jb_box(b)->type;
    if (ta == 0 && tb == 0) return SGN(jb_small_val(a), jb_small_val(b));
    if (ta == JB_BIG && tb == JB_BIG) return cmp_big((jb_big *)jb_box(a), (jb_big *)jb_box(b));
    if (ta == JB_BIG && tb == 0) return ((jb_big *)jb_box(a))->neg ? -1 : 1;
    if (ta == 0 && tb == JB_BIG) return ((jb_big *)jb_box(b))->neg ? 1 : -1;
    double da = ta == 0 ? (double)jb_small_val(a) : ta == JB_BIG ? big_to_double((jb_big *)jb_box(a)) : ((jb_float *)jb_box(a))->d;
    double db = tb == 0 ? (double)jb_small_val(b) : tb == JB_BIG ? big_to_double((jb_big *)jb_box(b)) : ((jb_float *)jb_box(b))->d;
    int c = SGN(da, db);
    if (c == 0 && exact && (ta == JB_FLOAT) != (tb == JB_FLOAT)) return ta == JB_FLOAT ? 1 : -1;
    return c;
}

static int cmp(ERL_NIF_TERM a, ERL_NIF_TERM b, int exact) {
    for (;;) {
        if (a == b) return 0;
        int ra = rank(a), rb = rank(b);
        if (ra != rb) return ra < rb ? -1 : 1;
        switch (ra) {
        case 0: return cmp_num(a, b, exact);
        case 1: {
            size_t la, lb;
            const char *na = jb_atom_name(jb_atom_index(a), &la), *nb = jb_atom_name(jb_atom_index(b), &lb);
            int c = memcmp(na, nb, la < lb ? la : lb);
            return c ? (c < 0 ? -1 : 1) : SGN(la, lb);
        }
        case 2:
            if (jb_box_type(a) == JB_RES && jb_box_type(b) == JB_RES) {
                uintptr_t pa = (uintptr_t)((jb_res *)jb_box(a))->res, pb = (uintptr_t)((jb_res *)jb_box(b))->res;
                return SGN(pa, pb);
            }
            if (jb_box_type(a) == JB_RES) return 1;
            if (jb_box_type(b) == JB_RES) return -1;
            /* fallthrough */
        case 3: case 4: case 5: return SGN(jb_opaque_id(a), jb_opaque_id(b));
        case 6: {
            jb_tuple *x = (jb_tuple *)jb_box(a), *y = (jb_tuple *)jb_box(b);
            if (x->h.n != y->h.n) return x->h.n < y->h.n ? -1 : 1;
            for (uint32_t i = 0; i < x->h.n; i++) { int c = cmp(x->el[i], y->el[i], exact); if (c) return c; }
            return 0;
        }
        case 7: {
            jb_map *x = (jb_map *)jb_box(a), *y = (jb_map *)jb_box(b);
            if (x->h.n != y->h.n) return x->h.n < y->h.n ? -1 : 1;
            for (uint32_t i = 0; i < x->h.n; i++) { int c = cmp(x->keys[i], y->keys[i], 1); if (c) return c; }
            for (uint32_t i = 0; i < x->h.n; i++) { int c = cmp(x->vals[i], y->vals[i], exact); if (c) return c; }
            return 0;
        }
        case 8: return 0;
        case 9: {
            jb_cons *x = (jb_cons *)jb_box(a), *y = (jb_cons *)jb_box(b);
            int c = cmp(x->head, y->head, exact);
            if (c) return c;
            a = x->tail; b = y->tail;
            continue;
        }
        case 10: {
            jb_bin *x = (jb_bin *)jb_box(a), *y = (jb_bin *)jb_box(b);
            size_t n = x->size < y->size ? x->size : y->size;
            int c = n ? memcmp(x->data, y->data, n) : 0;
            return c ? (c < 0 ? -1 : 1) : SGN(x->size, y->size);
        }
        }
        return 0;
    }
}

int jb_compare(ERL_NIF_TERM a, ERL_NIF_TERM b) { return cmp(a, b, 0); }
int enif_compare(ERL_NIF_TERM a, ERL_NIF_TERM b) { return cmp(a, b, 0); }
int enif_is_identical(ERL_NIF_TERM a, ERL_NIF_TERM b) { return cmp(a, b, 1) == 0; }

/* ---- printer ---- */
typedef struct { char *buf; size_t size, pos; } out_t;
static void put(out_t *o, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) { if (o->pos + 1 < o->size) o->buf[o->pos] = s[i]; o->pos++; }
}
static void puts_(out_t *o, const char *s) { put(o, s, strlen(s)); }

static void print_atom(out_t *o, const char *s, size_t n) {
    int plain = n > 0 && s[0] >= 'a' && s[0] <= 'z';
    for (size_t i = 0; plain && i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@')) plain = 0;
    }
    if (plain) { put(o, s, n); return; }
    put(o, "'", 1);
    for (size_t i = 0; i < n; i++) { if (s[i] == '\'' || s[i] == '\\') put(o, "\\", 1); put(o, s + i, 1); }
    put(o, "'", 1);
}

static void print(out_t *o, ERL_NIF_TERM t) {
    char tmp[64];
    if (jb_is_small(t)) { snprintf(tmp, sizeof tmp, "%lld", (long long)jb_small_val(t)); puts_(o, tmp); return; }
    if (jb_is_atom(t)) { size_t n; const char *s = jb_atom_name(jb_atom_index(t), &n); if (s) print_atom(o, s, n); return; }
    if (t == JB_NIL) { puts_(o, "[]"); return; }
    if (t == JB_NONVALUE) { puts_(o, "THE_NON_VALUE"); return; }
    switch (jb_opaque_kind(t)) {
    case JB_OPQ_PID: snprintf(tmp, sizeof tmp, "<pid:%llu>", (unsigned long long)jb_opaque_id(t)); puts_(o, tmp); return;
    case JB_OPQ_PORT: snprintf(tmp, sizeof tmp, "#Port<%llu>", (unsigned long long)jb_opaque_id(t)); puts_(o, tmp); return;
    case JB_OPQ_REF: snprintf(tmp, sizeof tmp, "#Ref<%llu>", (unsigned long long)jb_opaque_id(t)); puts_(o, tmp); return;
    case JB_OPQ_FUN: snprintf(tmp, sizeof tmp, "#Fun<%llu>", (unsigned long long)jb_opaque_id(t)); puts_(o, tmp); return;
    }
    switch (jb_box_type(t)) {
    case JB_FLOAT: snprintf(tmp, sizeof tmp, "%.17g", ((jb_float *)jb_box(t))->d); puts_(o, tmp); return;
    case JB_BIG: {
        jb_big *b = (jb_big *)jb_box(t);
        /* decimal: repeated division of the magnitude by 10 */
        unsigned char mag[256]; size_t n = b->h.n < sizeof mag ? b->h.n : sizeof mag;
        memcpy(mag, b->mag, n);
        char digits[700]; size_t nd = 0;
        while (n > 0 && nd < sizeof digits) {
            unsigned rem = 0;
            for (size_t i = n; i > 0; i--) { unsigned cur = (rem << 8) | mag[i - 1]; mag[i - 1] = (unsigned char)(cur / 10); rem = cur % 10; }
            digits[nd++] = (char)('0' + rem);
            while (n > 0 && mag[n - 1] == 0) n--;
        }
        if (b->neg) puts_(o, "-");
        while (nd > 0) put(o, &digits[--nd], 1);
        return;
    }
    case JB_TUPLE: {
        jb_tuple *x = (jb_tuple *)jb_box(t);
        puts_(o, "{");
        for (uint32_t i = 0; i < x->h.n; i++) { if (i) puts_(o, ","); print(o, x->el[i]); }
        puts_(o, "}");
        return;
    }
    case JB_CONS: {
        puts_(o, "[");
        int first = 1;
        while (jb_box_type(t) == JB_CONS) { if (!first) puts_(o, ","); first = 0; print(o, ((jb_cons *)jb_box(t))->head); t = ((jb_cons *)jb_box(t))->tail; }
        if (t != JB_NIL) { puts_(o, "|"); print(o, t); }
        puts_(o, "]");
        return;
    }
    case JB_BIN: {
        jb_bin *b = (jb_bin *)jb_box(t);
        puts_(o, "<<");
        for (size_t i = 0; i < b->size; i++) { snprintf(tmp, sizeof tmp, i ? ",%u" : "%u", b->data[i]); puts_(o, tmp); }
        puts_(o, ">>");
        return;
    }
    case JB_MAP: {
        jb_map *m = (jb_map *)jb_box(t);
        puts_(o, "#{");
        for (uint32_t i = 0; i < m->h.n; i++) { if (i) puts_(o, ","); print(o, m->keys[i]); puts_(o, "=>"); print(o, m->vals[i]); }
        puts_(o, "}");
        return;
    }
    case JB_RES: snprintf(tmp, sizeof tmp, "#Ref<res:%p>", (void *)((jb_res *)jb_box(t))->res); puts_(o, tmp); return;
    }
    puts_(o, "?");
}

int jb_print(char *buf, size_t size, ERL_NIF_TERM t) {
    out_t o = { buf, size, 0 };
    print(&o, t);
    if (size) buf[o.pos < size ? o.pos : size - 1] = 0;
    return (int)o.pos;
}

/* printf with %T (a term, printed like ~w); other conversions go to vsnprintf one at a time. */
int enif_vsnprintf(char *buffer, size_t size, const char *fmt, va_list ap) {
    out_t o = { buffer, size, 0 };
    const char *p = fmt;
    while (*p) {
        if (*p != '%') { put(&o, p++, 1); continue; }
        const char *start = p++;
        if (*p == '%') { put(&o, "%", 1); p++; continue; }
        while (*p && strchr("-+ #0123456789.*", *p)) p++;
        char len[3] = {0}; int nl = 0;
        while (*p && strchr("hlLqjzt", *p) && nl < 2) len[nl++] = *p++;
        char conv = *p ? *p++ : 0;
        char spec[32]; size_t sl = (size_t)(p - start);
        if (sl >= sizeof spec) sl = sizeof spec - 1;
        memcpy(spec, start, sl); spec[sl] = 0;
        char tmp[512]; int n = 0;
        int stars = 0; for (const char *q = start; q < p; q++) if (*q == '*') stars++;
        int w1 = stars > 0 ? va_arg(ap, int) : 0, w2 = stars > 1 ? va_arg(ap, int) : 0;
        #define FMT(v) (stars == 0 ? snprintf(tmp, sizeof tmp, spec, v) : stars == 1 ? snprintf(tmp, sizeof tmp, spec, w1, v) : snprintf(tmp, sizeof tmp, spec, w1, w2, v))
        switch (conv) {
        case 'T': {
            ERL_NIF_TERM t = va_arg(ap, ERL_NIF_TERM);
            out_t sub = { NULL, 0, 0 }; print(&sub, t);
            char *b = malloc(sub.pos + 1); out_t s2 = { b, sub.pos + 1, 0 }; print(&s2, t);
            put(&o, b, sub.pos); free(b);
            continue;
        }
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
            if (nl == 2 || len[0] == 'j' || len[0] == 'q' || len[0] == 'L') n = FMT(va_arg(ap, long long));
            else if (nl == 1 && (len[0] == 'l' || len[0] == 'z' || len[0] == 't')) n = FMT(va_arg(ap, long));
            else n = FMT(va_arg(ap, int));
            break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
            if (len[0] == 'L') n = FMT(va_arg(ap, long double)); else n = FMT(va_arg(ap, double));
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (stars == 0 && strcmp(spec, "%s") == 0) { put(&o, s ? s : "(null)", strlen(s ? s : "(null)")); continue; }
            n = FMT(s);
            break;
        }
        case 'p': n = FMT(va_arg(ap, void *)); break;
        default: put(&o, start, (size_t)(p - start)); continue;
        }
        #undef FMT
        if (n > 0) put(&o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    }
    if (size) buffer[o.pos < size ? o.pos : size - 1] = 0;
    return (int)o.pos;
}

int enif_snprintf(char *buffer, size_t size, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    int r = enif_vsnprintf(buffer, size, fmt, ap);
    va_end(ap);
    return r;
}
int enif_vfprintf(FILE *f, const char *fmt, va_list ap) {
    char buf[4096];
    int n = enif_vsnprintf(buf, sizeof buf, fmt, ap);
    fputs(buf, f);
    return n;
}
int enif_fprintf(FILE *f, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    int r = enif_vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}
