package org.jbeam.runtime;

import org.jbeam.bif.IoLists;
import org.jbeam.term.Term;

/** iodata (nested lists of bytes and binaries, a binary or [] as any tail) → bytes; badarg on anything else. */
public final class IoData {
    private IoData() {}

    /** Port data (port_command, port_control, driver output): one flattening for the whole VM, {@link IoLists}. */
    public static byte[] toBytes(Term t) { return IoLists.toBytes(t, true); }
}
