package org.jbeam.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.jbeam.term.ERef;

/**
 * The node's timers (receive ... after, erlang:send_after/start_timer, internal delays): a hashed
 * timing wheel of 1 ms ticks driven by one thread (docs/adr/0003-scheduler.md, "Timers").
 *
 * <p>Any thread starts a timer by pushing it on a lock-free stack linked through the timers
 * themselves (no allocation; the wheel thread takes the whole stack with one swap and reverses it
 * into start order — a JCTools XADD queue here made the wheel thread spin for producers that had
 * claimed a slot but were descheduled before filling it, 10% of bench_timers' samples under
 * load, ADR 0028); only the wheel thread touches
 * the buckets, so they need no locks. Ticks are 100 µs, not erts' 1 ms: a timeout fires at most
 * one tick (plus the thread's wake-up latency) after it is due, so {@code receive after 1} waits
 * about 1.1 ms instead of the 1–2 ms of a millisecond wheel (ADR 0028). Cancelling is one CAS on the timer's state (the entry is
 * unlinked when the wheel next passes its bucket, at most one revolution later), so the common
 * case — a receive timeout cancelled because a message came first — costs an allocation, a queue
 * push and a CAS. A bucket holds every timer whose deadline tick maps to it, due or not; the
 * thread visits buckets in tick order and fires those whose tick has come, in the order they were
 * started.
 *
 * <p>The thread sleeps until the next non-empty bucket, indefinitely when there is none; a
 * starter wakes it only when the new timer is due before that, so timers started while the
 * thread sleeps until the next tick cost no wake-up.
 */
public final class TimerWheel {
    static final long TICK_NANOS = 100_000L;
    private static final long MS_NANOS = 1_000_000L;
    /** 8192 slots of 100 µs: one revolution is about 0.8 s, so long timers are revisited rarely. */
    private static final int SLOTS = 8192, MASK = SLOTS - 1;
    private static final int PENDING = 0, DONE = 1;
    private static final long AWAKE = Long.MIN_VALUE;

    /** One timer. {@link #fire} runs on the wheel thread and must be short (it sends a signal). */
    public abstract static class Timer {
        private static final VarHandle STATE;
        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Timer.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
        /** Deadline on the System.nanoTime clock. */
        final long deadline;
        /** The wheel tick at which it fires: the first tick boundary at or after the deadline. */
        final long tick;
        @SuppressWarnings("unused") // through STATE
        private volatile int state;
        /** The incoming stack while started and not yet taken, then the bucket list (wheel thread only). */
        Timer next;

        protected Timer(long delayMillis) {
            deadline = System.nanoTime() + delayMillis * MS_NANOS;
            tick = Math.ceilDiv(deadline, TICK_NANOS);
        }

        protected abstract void fire();

        /** True if this call stopped the timer; false if it had fired or been cancelled already. */
        public final boolean cancel() { return STATE.compareAndSet(this, PENDING, DONE); }

        public final boolean isPending() { return state == PENDING; }

        /** Milliseconds left before it fires (0 when due). */
        public final long remainingMillis() { return Math.max(0, (deadline - System.nanoTime()) / MS_NANOS); }

        final boolean claimForFiring() { return STATE.compareAndSet(this, PENDING, DONE); }
    }

    /**
     * Timers of erlang:send_after/start_timer whose reference was copied out by value (external
     * format, ref_to_list), for cancel_timer/read_timer with an equal reference rebuilt from it.
     * A timer is found through its own reference object otherwise (ADR 0028).
     */
    public final ConcurrentHashMap<ERef, Timer> byRef = new ConcurrentHashMap<>();
    private static final VarHandle INCOMING, SLEEPING_UNTIL;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            INCOMING = l.findVarHandle(TimerWheel.class, "incoming", Timer.class);
            SLEEPING_UNTIL = l.findVarHandle(TimerWheel.class, "sleepingUntil", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Timers started and not yet taken by the wheel thread, newest first. */
    @SuppressWarnings("unused") // through INCOMING
    private volatile Timer incoming;
    private final Timer[] heads = new Timer[SLOTS], tails = new Timer[SLOTS];
    /** Bit i set while bucket i is non-empty, so finding the next busy tick skips empty words. */
    private final long[] busy = new long[SLOTS / 64];
    private final Thread thread;
    /** Tick the thread sleeps until (AWAKE while it works); starters read it to decide whether to wake it. */
    private volatile long sleepingUntil = AWAKE;
    private volatile boolean stopped;
    /** Last tick whose bucket has been processed (wheel thread only). */
    private long doneTick;
    /** Timers in buckets, cancelled ones included until unlinked (wheel thread only). */
    private int linked;
    /** Times the thread has woken from a sleep (for tests: cancelled timers must not wake it). */
    volatile long wakeups;

    TimerWheel(String name) {
        doneTick = Math.floorDiv(System.nanoTime(), TICK_NANOS);
        thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::loop);
        thread.start();
    }

    /** Starts {@code t}; any thread. */
    public void start(Timer t) {
        Timer h;
        do {
            h = incoming;
            t.next = h;
        } while (!INCOMING.compareAndSet(this, h, t));
        // Claim the wake-up: of many starters that see the thread asleep, one unparks it.
        long s = sleepingUntil;
        if (t.tick < s && SLEEPING_UNTIL.compareAndSet(this, s, AWAKE)) LockSupport.unpark(thread);
    }

    /** Runs {@code r} on the wheel thread after {@code ms} milliseconds (internal delays). */
    public Timer schedule(long ms, Runnable r) {
        Timer t = new Timer(ms) {
            @Override protected void fire() { r.run(); }
        };
        start(t);
        return t;
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    private void loop() {
        while (!stopped) {
            long now = Math.floorDiv(System.nanoTime(), TICK_NANOS);
            drainIncoming();
            advance(now);
            long wake = nextBusyTick();
            sleepingUntil = wake;
            // Re-check after announcing when we wake: a starter that saw AWAKE did not unpark us.
            if (incoming == null && !stopped && sleepingUntil == wake) {
                if (wake == Long.MAX_VALUE) LockSupport.park(this);
                else {
                    long delay = wake * TICK_NANOS - System.nanoTime();
                    if (delay > 0) LockSupport.parkNanos(this, delay);
                }
                wakeups++;
            }
            sleepingUntil = AWAKE;
        }
    }

    private void drainIncoming() {
        Timer rev = null; // the stack reversed: oldest first
        for (Timer t = (Timer) INCOMING.getAndSet(this, (Timer) null); t != null; ) {
            Timer n = t.next;
            t.next = rev;
            rev = t;
            t = n;
        }
        for (Timer t = rev; t != null; ) {
            Timer following = t.next;
            link(t);
            t = following;
        }
    }

    private void link(Timer t) {
        if (!t.isPending()) return;
        if (t.tick <= doneTick) { fire(t); return; } // its bucket is behind us
        int i = (int) (t.tick & MASK);
        t.next = null;
        if (tails[i] == null) { heads[i] = t; busy[i >>> 6] |= 1L << i; } else tails[i].next = t;
        tails[i] = t;
        linked++;
    }

    /** Processes the buckets of ticks doneTick+1 .. now, each at most once. */
    private void advance(long now) {
        long from = doneTick + 1;
        long to = Math.min(now, doneTick + SLOTS);
        for (long k = from; k <= to; k++) processBucket((int) (k & MASK), now);
        if (now > doneTick) doneTick = now;
    }

    /** Fires the bucket's timers due by {@code now}, drops cancelled ones, keeps later ones in order. */
    private void processBucket(int i, long now) {
        Timer prev = null;
        for (Timer t = heads[i]; t != null; ) {
            Timer next = t.next;
            boolean due = t.tick <= now;
            if (due || !t.isPending()) {
                if (prev == null) heads[i] = next; else prev.next = next;
                if (tails[i] == t) tails[i] = prev;
                t.next = null;
                linked--;
                if (due) fire(t);
            } else prev = t;
            t = next;
        }
        if (heads[i] == null) busy[i >>> 6] &= ~(1L << i);
    }

    private static void fire(Timer t) {
        if (!t.claimForFiring()) return;
        try {
            t.fire();
        } catch (RuntimeException e) {
            // a timer's action must not stop the wheel; the action reports its own failures
        }
    }

    /**
     * The tick of the next bucket holding a pending timer, or Long.MAX_VALUE when no timer is
     * linked. Buckets on the way that hold only cancelled timers are emptied instead of slept
     * for: a process that waits in {@code receive ... after 200} between messages leaves one
     * cancelled timer per message, each in its own 100 µs bucket, and waking for each of them cost
     * RabbitMQ's broker a wake-up of this thread per message round trip, a tenth of its CPU
     * (ADR 0057). Each cancelled timer is unlinked once, so the walk costs no more than the
     * processBucket visit it replaces.
     */
    private long nextBusyTick() {
        long k = doneTick + 1, end = doneTick + SLOTS;
        while (k <= end && linked > 0) {
            int i = (int) (k & MASK);
            long w = busy[i >>> 6] >>> (i & 63); // bits of buckets i.. within i's word
            if (w == 0) { k += 64 - (i & 63); continue; }
            long b = k + Long.numberOfTrailingZeros(w);
            if (b > end) return end;
            int j = (int) (b & MASK);
            if (dropCancelled(j)) return b;
            k = b + 1;
        }
        return linked == 0 ? Long.MAX_VALUE : end;
    }

    /**
     * Unlinks the cancelled timers at the head of bucket {@code i}; true if a pending one is left.
     * It stops at the first pending timer, so a bucket full of pending timers (of this or a later
     * revolution) is not walked on every wake-up; cancelled timers behind it go when the bucket's
     * tick comes, as before.
     */
    private boolean dropCancelled(int i) {
        Timer t = heads[i];
        while (t != null && !t.isPending()) {
            Timer next = t.next;
            t.next = null;
            linked--;
            t = next;
        }
        heads[i] = t;
        if (t != null) return true;
        tails[i] = null;
        busy[i >>> 6] &= ~(1L << i);
        return false;
    }
}
