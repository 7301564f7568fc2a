package org.jbeam.io;

/**
 * Backend selection for {@link CompletionRing#open(int)}: {@code -Djbeam.io=auto|uring|threads}.
 * The choice (and, when io_uring is not used, the reason) is logged once per ring at DEBUG, and
 * printed to stderr under {@code -Djbeam.debug} or {@code -Djbeam.io.log}.
 */
final class Backends {
    private Backends() {}

    static final String PROPERTY = "jbeam.io";
    private static final System.Logger LOG = System.getLogger("org.jbeam.io");

    static CompletionRing open(int entries) { return open(entries, IoUringRing.Mode.REAPER); }

    /** As {@link #open(int)}, with the io_uring ring driven as {@code mode} says. */
    static CompletionRing open(int entries, IoUringRing.Mode drive) {
        String mode = System.getProperty(PROPERTY, "auto");
        CompletionRing ring;
        String why;
        switch (mode) {
            case "threads" -> { ring = new ThreadPoolRing(); why = "forced by -D" + PROPERTY + "=threads"; }
            case "uring" -> { ring = new IoUringRing(entries, drive); why = "forced by -D" + PROPERTY + "=uring"; }
            case "auto" -> {
                String unavailable = IoUringRing.unavailableReason();
                if (unavailable == null) { ring = new IoUringRing(entries, drive); why = "auto"; }
                else { ring = new ThreadPoolRing(); why = "io_uring unavailable: " + unavailable; }
            }
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be auto, uring or threads, not " + mode);
        }
        String line = "jbeam I/O backend: " + ring.backendName() + (ring instanceof IoUringRing ? " " + drive : "") + " (" + why + ")";
        // Quiet by default (stderr belongs to the Erlang program); -Djbeam.debug or -Djbeam.io.log prints it.
        if (Boolean.getBoolean("jbeam.debug") || Boolean.getBoolean("jbeam.io.log")) System.err.println(line);
        LOG.log(System.Logger.Level.DEBUG, line);
        return ring;
    }
}
