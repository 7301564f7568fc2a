package org.jbeam.io;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.term.EAtom;

/**
 * Completion results as OTP sees them: a negative result {@code -errno} becomes the POSIX error
 * atom erts' {@code erl_errno_id} gives ({@code enoent}, {@code ebadf}, ..., {@code unknown}).
 */
public final class PosixErrors {
    private PosixErrors() {}

    private static final EAtom[] ATOMS = new EAtom[134];
    private static final EAtom UNKNOWN = EAtom.of("unknown");
    static {
        for (int i = 1; i < ATOMS.length; i++) ATOMS[i] = EAtom.of(Errno.erlId(i));
    }

    /** The atom for {@code errno} (positive) or a negative completion result. */
    public static EAtom atom(int errnoOrResult) {
        int e = Math.abs(errnoOrResult);
        return e > 0 && e < ATOMS.length ? ATOMS[e] : UNKNOWN;
    }

    /** True when a completion result is an error. */
    public static boolean isError(int result) { return result < 0; }
}
