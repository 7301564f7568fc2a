package org.jbeam.runtime;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.code.ExportTable;
import org.jbeam.term.*;

/**
 * One running node: export table, natives, loaded code, processes, registered names, ports,
 * schedulers and timers. Built by the embedding API ({@code org.jbeam.api.JBeam}).
 */
public final class Runtime {
    /** erlang:system_monitor's events and receiver, or null when none is set (see {@link SystemMonitorEvents}). */
    public volatile SystemMonitorEvents.Settings systemMonitor;

    /**
     * The node field of this node's own pids, ports and references: always {@code nonode@nohost}, also
     * once the node is alive. Local identifiers keep this marker (so they stay equal to themselves when
     * the node is named, as in erts); {@link #thisNode} is the name {@code node()} reports, and the
     * external term format writes local identifiers with that name and {@link #thisCreation}.
     */
    public final EAtom nodeName;
    public final int creation = 0;
    /** This node's name (erlang:setnode/2), {@code nonode@nohost} while not alive. */
    public volatile EAtom thisNode = EAtom.NONODE;
    /** +P, +Q and +A as given on the command line (or by the embedding API). */
    public volatile Limits limits = Limits.DEFAULT;
    public volatile int thisCreation;
    /** Connections to other nodes (the Erlang distribution protocol). */
    public final org.jbeam.dist.Distribution dist = new org.jbeam.dist.Distribution(this);
    public final ExportTable exports = new ExportTable();
    public final BifTable bifs = new BifTable();
    public final CodeServer code = new CodeServer(this);
    public final ProcessTable processes = new ProcessTable(this);
    public final Registry registry = new Registry();
    public final Ports ports = new Ports(this);
    /** erl_ddll's loaded drivers (the Java ones). */
    public final org.jbeam.ddll.DriverLoader drivers = new org.jbeam.ddll.DriverLoader(this);
    public final org.jbeam.bif.Aliases aliases = new org.jbeam.bif.Aliases();
    public final Scheduler scheduler;
    public final DirtyPools dirty;
    public final TimerWheel timers;
    public final OutputStream stdout, stderr;
    public final InputStream stdin;
    /** Completes with the exit status when erlang:halt is called. */
    public final CompletableFuture<Integer> halted = new CompletableFuture<>();
    /** Command-line arguments as init sees them (-eval …, -extra …). */
    public final List<String> args;
    public final Path otpRoot;
    public final long startNanos = System.nanoTime();
    /** Totals at the last statistics(runtime) / statistics(wall_clock) call, for "since last call". */
    public final java.util.concurrent.atomic.AtomicLong lastRuntimeMs = new java.util.concurrent.atomic.AtomicLong(),
            lastWallClockMs = new java.util.concurrent.atomic.AtomicLong(),
            lastReductions = new java.util.concurrent.atomic.AtomicLong(), lastExactReductions = new java.util.concurrent.atomic.AtomicLong();
    private final AtomicLong refCounter = new AtomicLong(1);
    private final AtomicLong uniqueCounter = new AtomicLong(1);
    private final ConcurrentHashMap<EPid, CompletableFuture<Term>> exitWatchers = new ConcurrentHashMap<>();
    private final PrintStream warnings;

    /** Trace flags and tracer given to processes created from now on (trace(new, ...)), or null. */
    public volatile org.jbeam.trace.TraceState traceNew;
    /** trace_pattern(on_load, ...): an org.jbeam.trace.OnLoadTrace for modules loaded from now on, or null. */
    public volatile Object traceOnLoad;
    /** Busy time of scheduler and dirty threads (scheduler_wall_time, microstate accounting). */
    public final ThreadTimes threadTimes;

    public Runtime(int schedulers, int dirtyCpu, int dirtyIo, List<Path> codePath, OutputStream stdout, OutputStream stderr,
                   InputStream stdin, List<String> args, Path otpRoot, List<BifModule> natives) {
        this.dirty = new DirtyPools(dirtyCpu, dirtyIo);
        this.threadTimes = new ThreadTimes(schedulers, dirty.threads(DirtyPools.Kind.CPU), dirty.threads(DirtyPools.Kind.IO));
        dirty.times = threadTimes;
        org.jbeam.jit.JitCompiler.install();
        this.nodeName = EAtom.NONODE;
        this.stdout = stdout;
        this.stderr = stderr;
        this.stdin = stdin;
        this.args = List.copyOf(args);
        this.otpRoot = otpRoot;
        this.warnings = new PrintStream(stderr, true);
        for (BifModule m : natives) m.register(bifs);
        for (BifTable.Entry e : bifs.all()) exports.get(e.module(), e.name(), e.arity()).bif = e;
        for (Path p : codePath) code.addPathLast(p);
        this.timers = new TimerWheel("jbeam-timers");
        this.scheduler = new Scheduler(this, schedulers);
        scheduler.start();
    }

    // ---- messages and signals ----

    /** Erlang send ({@code Dest ! Msg}): pid, registered name, {Name, Node} or port. */
    public void send(ErlProcess from, Term dest, Term msg) {
        if (from != null && from.trace != null) org.jbeam.trace.Tracing.send(from, dest, msg);
        sendUntraced(from, dest, msg);
    }

    /** The sequential tracer (system_flag(sequential_tracer, T)), or null: none (ADR 0070). */
    public volatile Term seqTracer;

    /** A send already traced (or not traced): a registered name's send resolves to its pid here. */
    private void sendUntraced(ErlProcess from, Term dest, Term msg) {
        // A local pid first, without the type switch (an invokedynamic typeSwitch, slow until C2
        // has compiled it: this is on every send; ADR 0028).
        if (dest instanceof EPid pid && pid.node == nodeName) sendLocal(from, pid, msg);
        else if (dest instanceof ERef ref && ref.node == nodeName) sendToRef(from, ref, msg);
        else sendOther(from, dest, msg);
    }

    private void sendOther(ErlProcess from, Term dest, Term msg) {
        switch (dest) {
            case EPid pid when pid.node != nodeName -> dist.send(from, pid, msg);
            case EPid pid -> sendLocal(from, pid, msg);
            case EAtom name -> {
                if (name == BootProgress.INIT) BootProgress.observe(this, msg);
                Term t = registry.whereis(name);
                if (t == null) throw ErlangException.badarg();
                sendUntraced(from, t, msg);
            }
            case ETuple t when t.arity() == 2 && t.get(0) instanceof EAtom name && t.get(1) instanceof EAtom node -> {
                if (node == thisNode) {
                    Term target = registry.whereis(name);
                    if (target != null) sendUntraced(from, target, msg);
                } else {
                    dist.sendNamed(from, name, node, msg);
                }
            }
            case ERef ref when ref.node != nodeName -> dist.sendAlias(from, ref, msg);
            case EPort port -> PortMessages.handle(this, from, port, msg);
            case ERef ref -> sendToRef(from, ref, msg);
            default -> throw ErlangException.badarg();
        }
    }

    /**
     * A local reference as destination: its alias's owner, or nowhere (not an alias, or inactive).
     * Every gen_server reply goes to an alias: taken before the type switch of {@link #sendOther}
     * (slow until C2 has compiled it, and then a class_check trap in some runs: ADR 0053).
     */
    private void sendToRef(ErlProcess from, ERef ref, Term msg) {
        EPid target = aliases.target(ref);
        if (target != null) sendLocal(from, target, msg);
    }

    /**
     * A send to a local pid, whatever the destination named. A sender with a sequential trace
     * token sends a copy of it with the message (ADR 0070), unless the receiver is gone: erts
     * neither traces nor counts a send to a dead process.
     */
    private void sendLocal(ErlProcess from, EPid pid, Term msg) {
        if (from == null || from.seqToken == null) sendTo(pid, msg);
        else if (pid.process != null || resolve(pid) != null) sendTo(pid, msg, org.jbeam.trace.SeqTrace.sent(from, pid, msg));
    }

    public void sendTo(EPid pid, Term msg) { sendTo(pid, msg, null); }

    /** A message to a local pid carrying sequential trace token {@code token} (null: none). */
    public void sendTo(EPid pid, Term msg, ETuple token) {
        Object o = pid.process;
        if (o == null) o = resolve(pid);
        if (o instanceof ErlProcess p) {
            if (token == null) p.deliver(msg);
            else p.deliver(msg, token);
        } else if (o instanceof SignalSink k) k.message(msg);
    }

    /**
     * The live process behind a local pid: the one the pid object points at, or, for a pid that did
     * not come from spawn (binary_to_term, list_to_pid, a distribution message), looked up by number;
     * null if it is gone or not on this node.
     */
    public ErlProcess resolve(EPid pid) {
        if (pid.process instanceof ErlProcess p) return p;
        if (pid.node != nodeName) return null;
        ErlProcess p = processes.byNumber(pid.number | (pid.serial << 15));
        return p != null && p.pid.equals(pid) ? p : null;
    }

    void sendSignal(EPid pid, Signals.Signal s) {
        Object o = pid.process;
        if (o == null) {
            if (pid.node != nodeName) { dist.signal(pid, s); return; }
            o = resolve(pid);
        }
        if (o instanceof ErlProcess p) p.deliver(s);
        else if (o instanceof SignalSink k) k.signal(s);
    }

    /** link/1 to a pid on another node: the LINK signal. */
    public void linkRemote(EPid remote, EPid from) { sendSignal(remote, new Signals.Link(from)); }

    /** unlink/1 from a pid on another node. */
    public void unlinkRemote(EPid remote, EPid from) { sendSignal(remote, new Signals.Unlink(from)); }

    /** Delivers an exit signal (exit/2, link breakage) to {@code target}. */
    public void exitSignal(Term from, EPid target, Term reason, boolean linked) {
        sendSignal(target, new Signals.Exit(from, reason, linked));
    }

    // ---- identities ----

    public ERef makeRef() { return new ERef(nodeName, creation, refIds()); }

    /** The id words of a new unique local reference (for ERef subclasses made on this node). */
    public int[] refIds() {
        long n = refCounter.getAndIncrement();
        return new int[] {(int) (n & 0x3FFFF), (int) (n >>> 18), 0};
    }

    public long uniqueInteger() { return uniqueCounter.getAndIncrement(); }

    // ---- lifecycle ----

    /** Future completed with the exit reason of {@code pid} (embedding API: await exit). */
    public CompletableFuture<Term> exitFuture(EPid pid) {
        CompletableFuture<Term> f = exitWatchers.computeIfAbsent(pid, k -> new CompletableFuture<>());
        if (!(pid.process instanceof ErlProcess)) {
            exitWatchers.remove(pid);
            f.complete(EAtom.NOPROC);
        }
        return f;
    }

    /** Drops the exit record of {@code pid} once the embedding API has read it. */
    public void forgetExit(EPid pid) { exitWatchers.remove(pid); }

    /**
     * Processes started by the embedding API's call(): the value their initial function returns
     * completes the future (an exit completes it exceptionally, unreported: the caller gets it).
     */
    public final java.util.concurrent.ConcurrentHashMap<EPid, CompletableFuture<Term>> callResults = new java.util.concurrent.ConcurrentHashMap<>();

    /** The initial function of {@code p} returned {@code value} (the process is about to exit normally). */
    public void returned(ErlProcess p, Term value) {
        if (callResults.isEmpty()) return;
        CompletableFuture<Term> f = callResults.remove(p.pid);
        if (f != null) f.complete(value);
    }

    void processExited(ErlProcess p, Term reason) {
        if (thisNode != EAtom.NONODE) dist.namerExited(p.pid);
        // Kept until the embedding API has read it (forgetExit): a process spawned through the API
        // may exit before its awaitExit call starts.
        CompletableFuture<Term> f = exitWatchers.get(p.pid);
        if (f != null) f.complete(reason);
        CompletableFuture<Term> call = callResults.isEmpty() ? null : callResults.remove(p.pid);
        if (call != null) call.completeExceptionally(new org.jbeam.api.ErlangExit(p.pid, reason));
        else CrashReport.maybeReport(this, p, reason);
    }

    public void writeStdout(byte[] b) { write(stdout, b); }
    public void writeStderr(byte[] b) { write(stderr, b); }

    private static void write(OutputStream o, byte[] b) {
        try {
            synchronized (o) { o.write(b); o.flush(); }
        } catch (java.io.IOException e) {
            // the stream is gone (closed pipe): output is lost, as with erl
        }
    }

    /**
     * Set when the node starts to halt: from then on no port output from other processes reaches
     * the standard streams, as on erts, where nothing else is scheduled once halt begins (a
     * crash report racing init's "init terminating" halt would otherwise appear sometimes).
     */
    public volatile boolean halting;

    public void halt(int status) {
        org.jbeam.loader.LoadStats.mark("halt");
        halting = true;
        try {
            stdout.flush();
            stderr.flush();
        } catch (java.io.IOException ignored) {
            // nothing to do: the streams are going away with the node
        }
        halted.complete(status);
    }

    public void shutdown() {
        scheduler.stop();
        timers.stop();
        dirty.shutdown();
    }

    // ---- diagnostics ----

    public void warn(String msg) { warnings.println(msg); }

    public void logInternal(Throwable t) {
        if (Boolean.getBoolean("jbeam.debug")) t.printStackTrace(warnings);
    }

    void internalError(ErlProcess p, Throwable t) {
        try {
            warnings.println("jbeam: internal error in " + p.pid + ": " + t);
            t.printStackTrace(warnings);
        } catch (Throwable report) {
            // The report itself can fail (a class that cannot be loaded once descriptors or memory
            // run out); the process must still exit, or its scheduler thread would die with it.
        }
        processes.exit(p, ETuple.of(EAtom.of("jbeam_internal_error"), EBitString.ofUtf8(String.valueOf(t))));
    }
}
