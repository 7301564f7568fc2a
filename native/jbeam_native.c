/* jbeam native layer: entry points called from Java through FFM.
 * For now a version probe that the Java side uses to check the library loads;
 * the erl_nif-compatible API is added by the NIF work. */
int jbeam_native_version(void) { return 1; }
