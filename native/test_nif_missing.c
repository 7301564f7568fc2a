/* A NIF library importing an enif_* function libjbeam_nif does not provide: enif_set_option,
 * new in NIF 2.17 (OTP 26), as a library built against a newer erl_nif.h would. Loading it must
 * fail and name the symbol. (Every function of OTP 25's NIF 2.16 API is provided.) */
#include "erl_nif.h"

extern int enif_set_option(ErlNifEnv *env, int opt, ...);

static ERL_NIF_TERM q(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, enif_set_option(env, 1, 0));
}
static ErlNifFunc funcs[] = { {"q", 0, q, 0} };
ERL_NIF_INIT(jbeam_test_nif_missing, funcs, NULL, NULL, NULL, NULL)
