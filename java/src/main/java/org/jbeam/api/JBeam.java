package org.jbeam.api;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jbeam.bif.Natives;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * The public embedding API: build a node, load modules, spawn processes, send messages, await
 * exits and halts. {@code bin/jbeam} is a thin client of this class.
 *
 * <pre>{@code
 * try (JBeam vm = JBeam.builder().otpRoot(OtpInstall.find()).build()) {
 *     EPid pid = vm.spawn("mymod", "main");
 *     Term reason = vm.awaitExit(pid, Duration.ofSeconds(5));
 * }
 * }</pre>
 */
public final class JBeam implements AutoCloseable {
    private final Runtime vm;

    private JBeam(Runtime vm) { this.vm = vm; }

    public static Builder builder() { return new Builder(); }

    /** The underlying runtime, for tools inside this project (tests, benchmarks). */
    public Runtime runtime() { return vm; }

    /**
     * Boots OTP as erl does: the first process runs {@code erl_init:start(init, Args)} with the
     * builder's {@link Builder#args} (init, kernel, stdlib, the {@code user} io server, then any
     * {@code -s}/{@code -run}/{@code -eval}). Processes spawned afterwards get {@code user} as group
     * leader, so their io works. Returns once OTP's io server ({@code user}) runs, or the node
     * halted during boot; {@link #awaitHalt} waits for the end.
     */
    public JBeam boot() {
        startBoot();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (vm.registry.whereis(EAtom.of("user")) == null && !vm.halted.isDone() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return this;
    }

    /** Starts the boot without waiting for it (what {@code bin/jbeam} does: init runs the show). */
    public JBeam startBoot() {
        Boot.start(vm);
        return this;
    }

    /** Loads (or reloads) a module from .beam bytes. */
    public void load(byte[] beam) throws org.jbeam.loader.LoadError {
        vm.code.install(vm.code.prepare(null, beam));
    }

    public void load(Path beamFile) throws org.jbeam.loader.LoadError, java.io.IOException {
        load(Files.readAllBytes(beamFile));
    }

    /** Spawns {@code module:function(args...)}. */
    public EPid spawn(String module, String function, Term... args) {
        org.jbeam.runtime.ProcessTable.SpawnOptions o = new org.jbeam.runtime.ProcessTable.SpawnOptions();
        o.watchExit = true;
        return vm.processes.spawn(null, EAtom.of(module), EAtom.of(function), args, o).pid;
    }

    /** Sends a message to a pid or registered name. */
    public void send(Term dest, Term message) { vm.send(null, dest, message); }

    /**
     * Runs {@code module:function(args...)} in a new process. The future completes with what the
     * function returns, or exceptionally with an {@link ErlangExit} carrying the exit reason when
     * the process dies instead (not logged as a crash: the caller has it).
     */
    public CompletableFuture<Term> call(String module, String function, Term... args) {
        CompletableFuture<Term> result = new CompletableFuture<>();
        org.jbeam.runtime.ProcessTable.SpawnOptions o = new org.jbeam.runtime.ProcessTable.SpawnOptions();
        o.hold = true;
        ErlProcess p = vm.processes.spawn(null, EAtom.of(module), EAtom.of(function), args, o);
        vm.callResults.put(p.pid, result);
        vm.processes.release(p);
        return result;
    }

    /** A new {@link Mailbox}: a pid Erlang code can send to and Java threads receive from. */
    public Mailbox mailbox() { return new Mailbox(vm); }

    /**
     * {@code gen_server:call(Server, Request, Timeout)} from Java: the reply, or an
     * {@link ErlangExit} when the server is not alive or exits first ({@code noproc} or its exit
     * reason), or a {@link TimeoutException}.
     */
    public Term genServerCall(Term server, Term request, Duration timeout) throws TimeoutException, InterruptedException {
        if (!(server instanceof EPid || server instanceof EAtom)) return genServerCallVia(server, request, timeout);
        EPid target = server instanceof EPid pid ? pid : vm.registry.whereis((EAtom) server) instanceof EPid pid ? pid : null;
        try (Mailbox mb = mailbox()) {
            if (target == null) throw new ErlangExit(mb.pid(), EAtom.NOPROC);
            ERef ref = mb.monitor(target);
            mb.send(target, ETuple.of(EAtom.of("$gen_call"), ETuple.of(mb.pid(), ref), request));
            // the reply {Ref, Reply}, or the monitor's {'DOWN', Ref, process, Pid, Reason}
            Term m = mb.receive(t -> t instanceof ETuple tu && (tu.arity() == 2 && ref.equals(tu.get(0))
                    || tu.arity() == 5 && tu.get(0) == EAtom.DOWN && ref.equals(tu.get(1))), timeout);
            if (m == null) throw new TimeoutException("gen_server call to " + server);
            ETuple tu = (ETuple) m;
            if (tu.arity() == 5) throw new ErlangExit(target, tu.get(4));
            mb.demonitor(ref, target);
            return tu.get(1);
        }
    }

    /**
     * Any other server form ({@code {Name, Node}}, {@code {global, Name}}, {@code {via, Mod, Name}}):
     * OTP's own gen_server:call in a process of its own resolves it. Its exit
     * {@code {Reason, {gen_server, call, Args}}} comes back as an ErlangExit with Reason, its
     * timeout as a TimeoutException, as for a pid or a name.
     */
    private Term genServerCallVia(Term server, Term request, Duration timeout) throws TimeoutException, InterruptedException {
        long ms = Math.max(0, timeout.toMillis());
        CompletableFuture<Term> f = call("gen_server", "call", server, request, org.jbeam.term.ESmall.of(ms));
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ErlangExit x && x.reason() instanceof ETuple tu && tu.arity() == 2
                    && tu.get(1) instanceof ETuple mfa && mfa.arity() == 3 && mfa.get(0) == EAtom.of("gen_server")) {
                if (tu.get(0) == EAtom.of("timeout")) throw new TimeoutException("gen_server call to " + server);
                throw new ErlangExit(x.pid(), tu.get(0));
            }
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Waits for a process to exit and returns its exit reason. */
    public Term awaitExit(EPid pid, Duration timeout) throws TimeoutException, InterruptedException {
        try {
            Term reason = vm.exitFuture(pid).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            vm.forgetExit(pid);
            return reason;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Waits until Erlang code calls erlang:halt and returns the exit status. */
    public int awaitHalt() throws InterruptedException {
        try {
            return vm.halted.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    public boolean isHalted() { return vm.halted.isDone(); }

    /** Whether a process is still alive. */
    public boolean isAlive(EPid pid) { return pid.process instanceof ErlProcess p && p.isAlive(); }

    @Override public void close() { vm.shutdown(); }

    /** A function implemented in Java and callable from Erlang (see {@link Builder#function}). */
    @FunctionalInterface
    public interface JavaFunction {
        Term apply(Term[] args);
    }

    /** Configures a node. */
    public static final class Builder {
        private int schedulers = java.lang.Runtime.getRuntime().availableProcessors();
        private final List<Path> pathFirst = new ArrayList<>(), pathLast = new ArrayList<>();
        private OutputStream stdout = System.out, stderr = System.err;
        private InputStream stdin = System.in;
        private List<String> args = List.of();
        private Path otpRoot;
        private int dirtyCpu = -1, dirtyIo = 10;
        private final List<org.jbeam.bif.BifModule> javaFunctions = new ArrayList<>();

        public Builder schedulers(int n) { this.schedulers = Math.max(1, n); return this; }
        /** Dirty CPU scheduler threads ({@code +SDcpu}); default: as many as schedulers. */
        public Builder dirtyCpuSchedulers(int n) { this.dirtyCpu = Math.max(1, n); return this; }
        /** Dirty IO scheduler threads ({@code +SDio}); default 10. */
        public Builder dirtyIoSchedulers(int n) { this.dirtyIo = Math.max(1, n); return this; }
        /**
         * How long an idle scheduler thread polls for work before it sleeps, as erl's {@code +sbwt}:
         * none, very_short, short, medium (the default), long or very_long.
         */
        public Builder schedulerBusyWait(String threshold) {
            long n = org.jbeam.runtime.Scheduler.busyWaitNanos(threshold);
            if (n < 0) throw new IllegalArgumentException("bad scheduler busy wait threshold: " + threshold);
            this.busyWait = n;
            return this;
        }
        private long busyWait = -1;
        /** The distribution buffer busy limit in KiB (erl's {@code +zdbbl}, 1..2097151; default 1024). */
        public Builder distBufBusyLimit(int kib) {
            if (kib < 1 || kib > 2097151) throw new IllegalArgumentException("Invalid dbbl limit: " + kib);
            this.dbbl = kib;
            return this;
        }
        private int dbbl = 1024;
        /** Process, port and async-pool limits (erl's +P, +Q, +A; see Limits for erts' ranges). */
        public Builder limits(org.jbeam.runtime.Limits l) { this.limits = l; return this; }
        private org.jbeam.runtime.Limits limits = org.jbeam.runtime.Limits.DEFAULT;

        /**
         * Makes {@code module:name/arity} a function implemented in Java, run on the calling
         * process's scheduler thread: keep it short (it holds the scheduler). Throw
         * {@link org.jbeam.runtime.ErlangException} to raise in Erlang.
         */
        public Builder function(String module, String name, int arity, JavaFunction body) {
            javaFunctions.add(t -> t.bifN(module, name, arity, (p, args) -> body.apply(args)));
            return this;
        }

        /**
         * Like {@link #function}, but the body runs on a dirty pool (blocking or long work): the
         * calling Erlang process is suspended until it returns, no scheduler is held.
         */
        public Builder dirtyFunction(String module, String name, int arity, org.jbeam.runtime.DirtyPools.Kind kind, JavaFunction body) {
            javaFunctions.add(t -> t.bifN(module, name, arity,
                    (p, args) -> org.jbeam.interp.Trap.await(p.vm.dirty.submit(p, kind, () -> body.apply(args)))));
            return this;
        }
        /** Adds a directory to the front of the code path (like -pa). */
        public Builder addPathFirst(Path dir) { pathFirst.add(dir); return this; }
        /** Adds a directory to the end of the code path (like -pz). */
        public Builder addPathLast(Path dir) { pathLast.add(dir); return this; }
        public Builder stdout(OutputStream o) { this.stdout = o; return this; }
        public Builder stderr(OutputStream o) { this.stderr = o; return this; }
        public Builder stdin(InputStream i) { this.stdin = i; return this; }
        /** Arguments as erl's init sees them (flags after the emulator's own). */
        public Builder args(List<String> a) { this.args = List.copyOf(a); return this; }
        /** The installed OTP whose lib/*&#47;ebin (and erts ebin) form the default code path. */
        public Builder otpRoot(Path root) { this.otpRoot = root; return this; }

        public JBeam build() {
            List<Path> path = new ArrayList<>(pathFirst);
            if (otpRoot != null) path.addAll(OtpInstall.codePath(otpRoot));
            path.addAll(pathLast);
            List<org.jbeam.bif.BifModule> natives = new ArrayList<>(Natives.all());
            natives.addAll(javaFunctions);
            Runtime vm = new Runtime(schedulers, dirtyCpu < 0 ? schedulers : dirtyCpu, dirtyIo, path, stdout, stderr, stdin,
                    args, otpRoot, natives);
            vm.limits = limits;
            if (busyWait >= 0) vm.scheduler.busyWait(busyWait);
            vm.dist.busyLimit = dbbl * 1024L;
            return new JBeam(vm);
        }
    }
}
