package org.jbeam.inet;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.Channel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

import org.jbeam.io.PollRing;

/**
 * Where tcp sockets get readiness from (ADR 0016): io_uring polls ({@link PollRing}) when the I/O
 * backend is io_uring, else the java.nio Selector of {@link IoLoop} (epoll). Chosen as the file ring's
 * backend is, by {@code -Djbeam.io=auto|uring|threads} ({@code threads} selects the selector), with
 * {@code -Djbeam.inet.poll=uring|nio} to choose for sockets alone. Readiness is reported in
 * {@link SelectionKey} {@code OP_*} bits either way, so the drivers do not know which one runs.
 * Reads and writes stay non-blocking calls on the NIO channel under the socket's monitor, on the
 * caller's or the poll thread, which keeps the inline read, read-ahead and combined writes of ADR 0007.
 */
abstract class SockPoll {
    /** A watched socket's driver; called on the poll thread with the ready OP_* bits. */
    interface Handler {
        void ready(int readyOps);
        /** Data received by the poll set itself (io_uring receives, see {@link Watch#ownsReads}): as PollRing.Listener.received. */
        default void received(java.lang.foreign.MemorySegment data, int n, boolean more) {}
    }

    /** One registered channel. Calls come with the socket's monitor held. */
    abstract static class Watch {
        abstract boolean isValid();
        /**
         * True when OP_READ interest means the poll set receives the data itself ({@link Handler#received})
         * rather than reporting readability: the socket must then not be read by anyone else.
         */
        boolean ownsReads() { return false; }
        /** Sets the interest exactly (poll thread). */
        abstract void interest(int ops);
        /** Adds interest bits (any thread; bits are only dropped by the poll thread, see IoLoop.addInterest). */
        abstract void addInterest(int ops);
        /**
         * Stops watching and closes {@code ch} once the poll set no longer holds it; with {@code await}
         * (a listen socket, which must refuse connections once gen_tcp:close returns) before returning.
         */
        abstract void close(Channel ch, boolean await);
    }

    abstract Watch register(SelectableChannel ch, Handler h, int ops) throws IOException;

    abstract boolean onPollThread();

    /** "io_uring" or "nio" (erlang:system_info({jbeam, socket_backend})). */
    abstract String name();

    private static volatile SockPoll instance;

    static SockPoll get() {
        SockPoll p = instance;
        if (p == null) {
            synchronized (SockPoll.class) {
                if (instance == null) instance = choose();
                p = instance;
            }
        }
        return p;
    }

    /** The io_uring socket ring when that is the backend, else null (udp_inet receives on it directly, ADR 0040). */
    static PollRing uringOrNull() { return get() instanceof Uring u ? u.ring : null; }

    /** The socket backend's name, for system_info. */
    static String backendName() { return get().name(); }

    private static SockPoll choose() {
        String io = System.getProperty("jbeam.io", "auto");
        String mode = System.getProperty("jbeam.inet.poll", io.equals("threads") ? "nio" : io.equals("uring") ? "uring" : "auto");
        String why;
        SockPoll p;
        switch (mode) {
            case "nio" -> { p = new Nio(); why = "forced (-Djbeam.io=threads or -Djbeam.inet.poll=nio)"; }
            case "uring" -> {
                String u = uringUnavailable();
                if (u != null) throw new IllegalStateException("io_uring sockets unavailable: " + u);
                p = new Uring(); why = "forced";
            }
            case "auto" -> {
                String u = uringUnavailable();
                if (u == null) { p = new Uring(); why = "auto"; } else { p = new Nio(); why = "io_uring unavailable: " + u; }
            }
            default -> throw new IllegalArgumentException("-Djbeam.inet.poll must be auto, uring or nio, not " + mode);
        }
        String line = "jbeam socket backend: " + p.name() + (p instanceof Uring u ? " " + u.ring.setupFlags() : "") + " (" + why + ")";
        if (Boolean.getBoolean("jbeam.debug") || Boolean.getBoolean("jbeam.io.log")) System.err.println(line);
        System.getLogger("org.jbeam.inet").log(System.Logger.Level.DEBUG, line);
        return p;
    }

    // ---- the fd of a NIO channel (sun.nio.ch.SelChImpl.getFDVal; needs --add-exports java.base/sun.nio.ch) ----

    private static final MethodHandle FD_VAL;
    private static final String FD_ERROR;
    static {
        MethodHandle h = null;
        String err = null;
        try {
            Class<?> c = Class.forName("sun.nio.ch.SelChImpl");
            h = MethodHandles.lookup().findVirtual(c, "getFDVal", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            err = "no access to a channel's fd (" + e + "); run with --add-exports java.base/sun.nio.ch=ALL-UNNAMED";
        }
        FD_VAL = h;
        FD_ERROR = err;
    }

    static int fdOf(SelectableChannel ch) {
        try {
            return (int) FD_VAL.invokeExact((Object) ch);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static String uringUnavailable() {
        if (FD_ERROR != null) return FD_ERROR;
        return PollRing.unavailableReason();
    }

    // ---- java.nio Selector (IoLoop) ----

    private static final class Nio extends SockPoll {
        @Override Watch register(SelectableChannel ch, Handler h, int ops) throws IOException {
            NioWatch w = new NioWatch();
            w.key = IoLoop.get().register(ch, k -> h.ready(k.readyOps()), ops);
            return w;
        }
        @Override boolean onPollThread() { return IoLoop.get().onPollThread(); }
        @Override String name() { return "nio"; }
    }

    private static final class NioWatch extends Watch {
        SelectionKey key;
        @Override boolean isValid() { return key.isValid(); }
        @Override void interest(int ops) { IoLoop.get().interest(key, ops); }
        @Override void addInterest(int ops) { IoLoop.get().addInterest(key, ops); }
        @Override void close(Channel ch, boolean await) {
            if (await) {
                // A registered channel's fd is released only when the poll thread deregisters its key.
                key.cancel();
                IoLoop.get().awaitDeregistered((SelectableChannel) ch);
                closeQuietly(ch);
            } else {
                closeQuietly(ch);
                key.cancel();
                IoLoop.get().wakeupSoon();
            }
        }
    }

    static void closeQuietly(Channel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    // ---- io_uring polls ----

    private static final class Uring extends SockPoll {
        final PollRing ring = new PollRing(256, () -> org.jbeam.runtime.Scheduler.parkedWorkers() == 0);
        @Override Watch register(SelectableChannel ch, Handler h, int ops) throws IOException {
            ch.configureBlocking(false);
            UringWatch w = new UringWatch();
            w.ops = ops;
            // Connected sockets receive through IORING_OP_RECV (-Djbeam.inet.uringRecv=false: poll + read).
            w.recv = RECV && ch instanceof java.nio.channels.SocketChannel;
            w.key = ring.register(fdOf(ch), new PollRing.Listener() {
                @Override public void ready(int rev) { h.ready(w.readyOps(rev)); }
                @Override public void received(java.lang.foreign.MemorySegment data, int n, boolean more) { h.received(data, n, more); }
            }, w.mask(ops));
            if (w.recv && (ops & SelectionKey.OP_READ) != 0) w.key.wantRecv(true);
            return w;
        }
        @Override boolean onPollThread() { return ring.onRingThread(); }
        @Override String name() { return "io_uring"; }
    }

    static final boolean RECV = !"false".equals(System.getProperty("jbeam.inet.uringRecv"));

    private static int mask(int ops) {
        int m = 0;
        if ((ops & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0) m |= PollRing.POLLIN;
        if ((ops & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0) m |= PollRing.POLLOUT;
        return m;
    }

    private static final class UringWatch extends Watch {
        PollRing.Key key;
        volatile int ops;
        boolean recv;

        int mask(int o) { return SockPoll.mask(recv ? o & ~SelectionKey.OP_READ : o); }
        @Override boolean ownsReads() { return recv; }

        /** revents to OP_* bits as NIO translates them: an error or hang-up makes every interest ready. */
        int readyOps(int rev) {
            int o = ops, r = 0;
            if ((rev & (PollRing.POLLIN | PollRing.POLLERR | PollRing.POLLHUP)) != 0) r |= o & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT);
            if ((rev & (PollRing.POLLOUT | PollRing.POLLERR | PollRing.POLLHUP)) != 0) r |= o & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT);
            return r;
        }

        @Override boolean isValid() { return key.isValid(); }
        @Override void interest(int o) {
            ops = o;
            key.want(mask(o));
            if (recv) key.wantRecv((o & SelectionKey.OP_READ) != 0);
        }
        @Override void addInterest(int o) {
            int old = ops;
            if ((old | o) != old) {
                ops = old | o;
                key.add(mask(o));
                if (recv && (o & SelectionKey.OP_READ) != 0) key.wantRecv(true);
            }
        }
        @Override void close(Channel ch, boolean await) {
            key.release(() -> closeQuietly(ch));
            if (!await || SockPoll.get().onPollThread()) return;
            long end = System.nanoTime() + 200_000_000L;
            while (!key.isReleased() && System.nanoTime() < end) {
                Thread.onSpinWait();
                try {
                    Thread.sleep(0, 50_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
