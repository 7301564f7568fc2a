package org.jbeam.runtime;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Busy time of the scheduler and dirty threads, for statistics(scheduler_wall_time) and
 * statistics(microstate_accounting). Counting is off until one of them is switched on
 * (erlang:system_flag/2): a scheduler then reads the clock twice per slice, a dirty thread twice
 * per job. "Busy" is running process slices or dirty jobs; the rest of the wall time since the
 * switch is idle (spinning for work, parked), which erts also reports as sleep.
 */
public final class ThreadTimes {
    /** Slots: normal schedulers 0..n-1, dirty CPU n..n+c-1, dirty IO after. */
    private final int schedulers, dirtyCpu, dirtyIo;
    /** Busy nanoseconds per slot, only ever growing (while counting); the statistics subtract a snapshot. */
    private final AtomicLongArray busy;
    private final long[] wallBase, msaccBase, msaccFrozen;
    private volatile boolean wallTime, msacc;
    /** wallTime || msacc, kept by the setters: the one flag a scheduler reads per slice. */
    private volatile boolean counting;
    private long wallStart, msaccStart, msaccStop;

    ThreadTimes(int schedulers, int dirtyCpu, int dirtyIo) {
        this.schedulers = schedulers;
        this.dirtyCpu = dirtyCpu;
        this.dirtyIo = dirtyIo;
        int n = schedulers + dirtyCpu + dirtyIo;
        this.busy = new AtomicLongArray(n);
        this.wallBase = new long[n];
        this.msaccBase = new long[n];
        this.msaccFrozen = new long[n];
    }

    /** True while either statistic is on (the threads then time their work). */
    public boolean counting() { return counting; }

    void add(int slot, long nanos) { if (slot >= 0 && slot < busy.length()) busy.addAndGet(slot, nanos); }

    int dirtySlot(DirtyPools.Kind k, int index) { return k == DirtyPools.Kind.CPU ? schedulers + index : schedulers + dirtyCpu + index; }

    /** erts_internal:scheduler_wall_time/1: returns the previous state. */
    public synchronized boolean setWallTime(boolean on) {
        boolean was = wallTime;
        if (on && !was) {
            for (int i = 0; i < wallBase.length; i++) wallBase[i] = busy.get(i);
            wallStart = System.nanoTime();
        }
        wallTime = on;
        counting = wallTime || msacc;
        return was;
    }

    /** system_flag(microstate_accounting, true | false | reset): returns the previous state. */
    public synchronized boolean setMsacc(String action) {
        boolean was = msacc;
        switch (action) {
            case "true" -> { if (!was) resetMsacc(); msacc = true; }
            case "false" -> {
                if (was) { msaccStop = System.nanoTime(); for (int i = 0; i < msaccFrozen.length; i++) msaccFrozen[i] = busy.get(i); }
                msacc = false;
            }
            default -> { resetMsacc(); if (!msacc) { msaccStop = msaccStart; System.arraycopy(msaccBase, 0, msaccFrozen, 0, msaccBase.length); } }
        }
        counting = wallTime || msacc;
        return was;
    }

    private void resetMsacc() {
        for (int i = 0; i < msaccBase.length; i++) msaccBase[i] = busy.get(i);
        msaccStart = System.nanoTime();
    }

    public boolean wallTimeOn() { return wallTime; }
    public int schedulers() { return schedulers; }
    public int dirtyCpu() { return dirtyCpu; }
    public int dirtyIo() { return dirtyIo; }

    /** {busy, total} nanoseconds of slot {@code i} since scheduler_wall_time was switched on. */
    public synchronized long[] wallTime(int i) {
        return new long[] {busy.get(i) - wallBase[i], System.nanoTime() - wallStart};
    }

    /** {busy, total} nanoseconds of slot {@code i} under microstate accounting (frozen while it is off; zeros if never on). */
    public synchronized long[] msacc(int i) {
        if (msaccStart == 0) return new long[] {0, 0};
        if (!msacc) return new long[] {msaccFrozen[i] - msaccBase[i], msaccStop - msaccStart};
        return new long[] {busy.get(i) - msaccBase[i], System.nanoTime() - msaccStart};
    }
}
