package org.jbeam.trace;

import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.ENil;
import org.jbeam.term.Term;

/**
 * The process trace flags of {@code erlang:trace/3} as bits, their names, and the order in which
 * {@code trace_info(Pid, flags)} lists them (erts builds that list in a fixed order, whatever
 * order the flags were set in).
 */
public final class TraceFlags {
    private TraceFlags() {}

    public static final int SEND = 1, RECEIVE = 1 << 1, PROCS = 1 << 2, CALL = 1 << 3, RETURN_TO = 1 << 4,
            RUNNING = 1 << 5, GARBAGE_COLLECTION = 1 << 6, EXITING = 1 << 7, SET_ON_SPAWN = 1 << 8,
            SET_ON_FIRST_SPAWN = 1 << 9, SET_ON_LINK = 1 << 10, SET_ON_FIRST_LINK = 1 << 11, TIMESTAMP = 1 << 12,
            MONOTONIC_TIMESTAMP = 1 << 13, STRICT_MONOTONIC_TIMESTAMP = 1 << 14, ARITY = 1 << 15, SILENT = 1 << 16,
            RUNNING_PROCS = 1 << 17, RUNNING_PORTS = 1 << 18, PORTS = 1 << 19, SCHEDULER_ID = 1 << 20;

    /** trace_info's order (erts'), name by name. */
    private static final String[] ORDER = {"running_procs", "running_ports", "ports", "scheduler_id", "silent", "return_to",
            "arity", "garbage_collection", "exiting", "running", "set_on_first_link", "set_on_link", "set_on_first_spawn",
            "procs", "call", "set_on_spawn", "receive", "send", "monotonic_timestamp", "strict_monotonic_timestamp",
            "timestamp"};
    private static final int[] ORDER_BITS = {RUNNING_PROCS, RUNNING_PORTS, PORTS, SCHEDULER_ID, SILENT, RETURN_TO, ARITY,
            GARBAGE_COLLECTION, EXITING, RUNNING, SET_ON_FIRST_LINK, SET_ON_LINK, SET_ON_FIRST_SPAWN, PROCS, CALL,
            SET_ON_SPAWN, RECEIVE, SEND, MONOTONIC_TIMESTAMP, STRICT_MONOTONIC_TIMESTAMP, TIMESTAMP};
    private static final EAtom[] ORDER_ATOMS = new EAtom[ORDER.length];
    static { for (int i = 0; i < ORDER.length; i++) ORDER_ATOMS[i] = EAtom.of(ORDER[i]); }

    /** {@code all}: every flag but cpu_timestamp (which erts on Linux refuses anyway). */
    public static final int ALL = SEND | RECEIVE | PROCS | CALL | RETURN_TO | RUNNING | GARBAGE_COLLECTION | EXITING
            | SET_ON_SPAWN | SET_ON_FIRST_SPAWN | SET_ON_LINK | SET_ON_FIRST_LINK | TIMESTAMP | MONOTONIC_TIMESTAMP
            | STRICT_MONOTONIC_TIMESTAMP | ARITY | SILENT | RUNNING_PROCS | RUNNING_PORTS | PORTS | SCHEDULER_ID;

    /** Flags that give a timestamp to every trace message. */
    public static final int ANY_TIMESTAMP = TIMESTAMP | MONOTONIC_TIMESTAMP | STRICT_MONOTONIC_TIMESTAMP;

    /** The bit of a flag atom ({@code all} included), or 0 when it is not a process trace flag. */
    public static int bit(EAtom a) {
        if (a.name.equals("all")) return ALL;
        for (int i = 0; i < ORDER.length; i++) if (ORDER[i].equals(a.name)) return ORDER_BITS[i];
        return 0;
    }

    /** erts' trace flag word bits (process_info(P, trace)), flag by flag in ORDER_BITS' order. */
    private static final int[] ERTS_BITS = {2097152, 1048576, 4194304, 8388608, 131072, 65536, 32768, 16384, 16777216,
            8192, 512, 256, 128, 2048, 1024, 64, 32, 16, 4, 2, 1};

    /** process_info(P, trace): the flags as erts' flag word. */
    public static long ertsWord(int flags) {
        long w = 0;
        for (int i = 0; i < ORDER_BITS.length; i++) if ((flags & ORDER_BITS[i]) != 0) w |= ERTS_BITS[i];
        return w;
    }

    /** The flags as trace_info lists them. */
    public static Term toList(int flags) {
        Term l = ENil.NIL;
        for (int i = ORDER.length - 1; i >= 0; i--) if ((flags & ORDER_BITS[i]) != 0) l = new ECons(ORDER_ATOMS[i], l);
        return l;
    }
}
