/* A NIF library that imports no erl_nif function calling back into the VM, so jbeam runs its
 * normal calls as critical downcalls reading a large binary argument in place (ADR 0006).
 * Exercises what that must survive: sub-binaries and results built from the argument, exceptions
 * carrying it, and continuations (enif_schedule_nif, yielding and dirty) that use it after the
 * first step returned. Loaded by both erl and jbeam (tests/erl/jbeam_heap_nif.erl). */
#include <string.h>
#include "erl_nif.h"

#define NIF(name) static ERL_NIF_TERM name(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])

static unsigned long sum_bytes(const ErlNifBinary *b) {
    unsigned long s = 0;
    for (size_t i = 0; i < b->size; i++) s = s * 31 + b->data[i];
    return s;
}

NIF(sum) {   /* sum(Bin, X): a hash of Bin's bytes (X: a second argument, any term) */
    ErlNifBinary b;
    if (!enif_inspect_binary(env, argv[0], &b)) return enif_make_badarg(env);
    return enif_make_tuple2(env, enif_make_ulong(env, sum_bytes(&b)), argv[1]);
}
NIF(slice) {   /* slice(Bin, Off, Len): {SubBinary, CopyOfSlice} */
    ErlNifBinary b; unsigned off, len;
    if (!enif_inspect_binary(env, argv[0], &b) || !enif_get_uint(env, argv[1], &off) || !enif_get_uint(env, argv[2], &len)
        || (size_t)off + len > b.size) return enif_make_badarg(env);
    ERL_NIF_TERM copy;
    memcpy(enif_make_new_binary(env, len, &copy), b.data + off, len);
    return enif_make_tuple2(env, enif_make_sub_binary(env, argv[0], off, len), copy);
}
NIF(same) { return enif_make_tuple2(env, argv[0], enif_make_atom(env, "same")); }
NIF(fail_with) {   /* raises {failed, Bin} */
    return enif_raise_exception(env, enif_make_tuple2(env, enif_make_atom(env, "failed"), argv[0]));
}

/* Steps over a binary: each step hashes a 4096-byte piece and reschedules itself with
 * (Bin, Pos, Acc, Flags), so the binary argument outlives the first downcall. */
static ERL_NIF_TERM step(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifBinary b; unsigned pos, flags; unsigned long acc;
    if (!enif_inspect_binary(env, argv[0], &b) || !enif_get_uint(env, argv[1], &pos) || !enif_get_ulong(env, argv[2], &acc)
        || !enif_get_uint(env, argv[3], &flags)) return enif_make_badarg(env);
    size_t end = pos + 4096 < b.size ? pos + 4096 : b.size;
    for (size_t i = pos; i < end; i++) acc = acc * 31 + b.data[i];
    if (end == b.size) return enif_make_tuple2(env, enif_make_ulong(env, acc), enif_make_sub_binary(env, argv[0], 0, 8));
    ERL_NIF_TERM a[4] = { argv[0], enif_make_uint(env, (unsigned)end), enif_make_ulong(env, acc), argv[3] };
    /* alternate between the requested kind and a normal scheduler */
    int next = (end / 4096) % 2 ? (int)flags : 0;
    return enif_schedule_nif(env, "step", next, step, 4, a);
}
NIF(stepped) {   /* stepped(Bin, Flags): the same hash as sum/2, computed in rescheduled steps */
    ERL_NIF_TERM a[4] = { argv[0], enif_make_uint(env, 0), enif_make_ulong(env, 0), argv[1] };
    unsigned flags;
    if (!enif_get_uint(env, argv[1], &flags)) return enif_make_badarg(env);
    return enif_schedule_nif(env, "step", (int)flags, step, 4, a);
}
static ERL_NIF_TERM unwrap(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {   /* ({[Bin]}, Flags) */
    const ERL_NIF_TERM *el; int ar; ERL_NIF_TERM h, t;
    if (!enif_get_tuple(env, argv[0], &ar, &el) || ar != 1 || !enif_get_list_cell(env, el[0], &h, &t)) return enif_make_badarg(env);
    ERL_NIF_TERM a[4] = { h, enif_make_uint(env, 0), enif_make_ulong(env, 0), argv[1] };
    return step(env, 4, a);
}
NIF(wrapped) {   /* wrapped(Bin, Flags): reschedules with the binary inside a tuple and a list */
    unsigned flags;
    if (!enif_get_uint(env, argv[1], &flags)) return enif_make_badarg(env);
    ERL_NIF_TERM a[2] = { enif_make_tuple1(env, enif_make_list1(env, argv[0])), argv[1] };
    return enif_schedule_nif(env, "unwrap", (int)flags, unwrap, 2, a);
}

static ErlNifFunc funcs[] = {
    {"sum", 2, sum, 0}, {"slice", 3, slice, 0}, {"same", 1, same, 0}, {"fail_with", 1, fail_with, 0},
    {"stepped", 2, stepped, 0}, {"wrapped", 2, wrapped, 0},
};
ERL_NIF_INIT(jbeam_heap_nif, funcs, NULL, NULL, NULL, NULL)
