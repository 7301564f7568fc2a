package org.jbeam.nif;

import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.EPort;
import org.jbeam.term.ERef;
import org.jbeam.term.Term;

/**
 * What the NIF layer needs from the runtime: delivering messages sent with enif_send and making
 * references (enif_make_ref). Installed once with {@link NifLibrary#setHost}; the default drops
 * messages and makes refs of its own. Called from any thread, including threads a NIF created.
 */
public interface NifHost {
    /** Delivers {@code msg} to {@code to}; returns false when the process does not exist. */
    boolean send(EPid to, Term msg);

    /** A new unique reference. */
    ERef makeRef();

    /**
     * Monitors {@code target} under {@code ref} for a NIF resource: {@code onDown} runs once, on
     * any thread, when the target exits. False when the target is not alive (no monitor made).
     */
    default boolean monitor(ERef ref, EPid target, Runnable onDown) { return false; }

    /** The pid or port registered under {@code name}, or null (enif_whereis_pid/_port). */
    default Term whereis(EAtom name) { return null; }

    /**
     * erlang:port_command(Port, Msg) on behalf of {@code caller} (null: the port's owner), for
     * enif_port_command; false when the port is not open or {@code msg} is not iodata.
     */
    default boolean portCommand(EPort port, EPid caller, Term msg) { return false; }

    /** True when {@code pid} is a local process that is alive (enif_is_process_alive). */
    default boolean processAlive(EPid pid) { return false; }

    /** True when {@code port} is open (enif_is_port_alive). */
    default boolean portAlive(EPort port) { return false; }

    /** Removes a monitor made by {@link #monitor}; false when it was not active. */
    default boolean demonitor(ERef ref, EPid target) { return false; }

    /** The default host: sends go nowhere (reported as failed), refs are locally unique. */
    NifHost NONE = new NifHost() {
        private final AtomicLong n = new AtomicLong(1);
        @Override public boolean send(EPid to, Term msg) { return false; }
        @Override public ERef makeRef() {
            long v = n.getAndIncrement();
            return new ERef(EAtom.NONODE, 0, new int[] {(int) (v & 0x3FFFF), (int) (v >>> 18), 0x4E4952});
        }
    };
}
