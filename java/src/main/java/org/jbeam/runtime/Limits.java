package org.jbeam.runtime;

/**
 * The emulator's size limits as erl's {@code +P} (processes), {@code +Q} (ports) and {@code +A}
 * (async thread pool) set them, validated and rounded as erts does: process and port limits
 * between 1024 and 2^27 - 1, rounded up to a power of two; the async pool 0..1024 (reported as at
 * least 1). {@code erlang:system_info(process_limit | port_limit | thread_pool_size)} reads them,
 * and a spawn beyond the process limit fails with system_limit.
 */
public record Limits(int processes, int ports, int asyncThreads) {
    public static final Limits DEFAULT = new Limits(262144, 65536, 1);

    private static final int MIN = 1024, MAX = (1 << 27) - 1;

    /**
     * erl's {@code +P}, {@code +Q} or {@code +A} ({@code flag}) with its value as written: an
     * IllegalArgumentException with erts' message ("bad number of processes abc") for one it refuses.
     */
    public Limits withFlag(char flag, String value) {
        String what = switch (flag) {
            case 'P' -> "processes";
            case 'Q' -> "ports";
            case 'A' -> "async threads";
            default -> throw new IllegalArgumentException("not a limit flag: +" + flag);
        };
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad number of " + what + " " + value);
        }
        return flag == 'P' ? withProcesses(n) : flag == 'Q' ? withPorts(n) : withAsyncThreads(n);
    }

    public Limits withProcesses(long n) { return new Limits(table(n, "processes"), ports, asyncThreads); }

    public Limits withPorts(long n) { return new Limits(processes, table(n, "ports"), asyncThreads); }

    public Limits withAsyncThreads(long n) {
        if (n < 0 || n > 1024) throw new IllegalArgumentException("bad number of async threads " + n);
        return new Limits(processes, ports, (int) Math.max(1, n));
    }

    private static int table(long n, String what) {
        if (n < MIN || n > MAX) throw new IllegalArgumentException("bad number of " + what + " " + n);
        int r = Integer.highestOneBit((int) n);
        return r == n ? r : r << 1;
    }
}
