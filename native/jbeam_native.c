#define _GNU_SOURCE
#include <errno.h>
#include <sys/types.h>
#include <sys/uio.h>

/* jbeam native layer: entry points called from Java through FFM.
 * For now a version probe that the Java side uses to check the library loads;
 * the erl_nif-compatible API is added by the NIF work. */
int jbeam_native_version(void) { return 1; }


/* preadv2(fd, {buf, n}, 1, off, flags), result or -errno. Java calls it as a critical downcall
 * with buf inside a Java array: the array's address exists only during the call, so the iovec
 * that holds it has to be built here (prim_file's page-cache read path, ADR 0012). */
long jbeam_preadv2(int fd, void *buf, long n, long off, int flags) {
    struct iovec iov = { buf, (size_t) n };
    ssize_t r = preadv2(fd, &iov, 1, (off_t) off, flags);
    return r < 0 ? -errno : (long) r;
}
