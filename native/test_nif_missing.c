/* A NIF library importing an enif_* function libjbeam_nif does not provide (the I/O queue
 * API): loading it must fail and name the symbol. */
#include "erl_nif.h"

static ERL_NIF_TERM q(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *ioq = enif_ioq_create(ERL_NIF_IOQ_NORMAL);
    return enif_make_int(env, ioq != NULL);
}
static ErlNifFunc funcs[] = { {"q", 0, q, 0} };
ERL_NIF_INIT(jbeam_test_nif_missing, funcs, NULL, NULL, NULL, NULL)
