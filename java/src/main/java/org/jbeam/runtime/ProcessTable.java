package org.jbeam.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.code.*;
import org.jbeam.term.*;

/**
 * All live processes: spawning (initial stack and registers) and exiting (links, monitors,
 * registered name, timers), with OTP's exit-signal semantics.
 */
public final class ProcessTable {
    /** Code every process starts in: a trampoline calling the initial function, then normal exit. */
    public static final BeamModule SYSTEM = systemModule();
    public static final int PC_START = 1, PC_EXIT = 2, PC_AWAIT = 3, PC_RETURN_TRACE = 4, PC_RETURN_TIME = 5, PC_RETURN_TO = 6;
    static final ReturnAddr EXIT_ADDR = new ReturnAddr(SYSTEM, PC_EXIT, null, 0);

    private final Runtime vm;
    private final ConcurrentHashMap<Integer, ErlProcess> live = new ConcurrentHashMap<>();
    private final AtomicInteger nextNumber = new AtomicInteger(0);

    ProcessTable(Runtime vm) { this.vm = vm; }

    private static BeamModule systemModule() {
        BeamModule m = new BeamModule(EAtom.of("$jbeam_system"));
        Instr start = new Instr(Ops.APPLY_TRAMPOLINE);
        m.code = new Instr[] {new Instr(org.jbeam.loader.Opcodes.INT_CODE_END), start, new Instr(Ops.NORMAL_EXIT), new Instr(Ops.AWAIT_ASYNC),
                new Instr(Ops.RETURN_TRACE), new Instr(Ops.RETURN_TIME), new Instr(Ops.RETURN_TO)};
        m.consts = new Term[0];
        m.functions = new FuncInfo[0];
        m.funs = new FunEntry[0];
        m.lines = org.jbeam.loader.LineTable.EMPTY;
        return m;
    }

    public int count() { return live.size(); }

    public List<ErlProcess> all() { return new ArrayList<>(live.values()); }

    public ErlProcess byNumber(int n) { return live.get(n); }

    /** A fresh local pid with no process behind it, for {@code sink} (an embedding API mailbox). */
    public EPid sinkPid(SignalSink sink) {
        EPid pid = newPid(nextNumber.getAndIncrement());
        pid.process = sink;
        return pid;
    }

    /** The local pid for process number {@code n} (the live table's key is the same 28 bits). */
    private EPid newPid(int n) { return new EPid(vm.nodeName, n & 0x7FFF, (n >>> 15) & 0x1FFF, 0); }

    private ErlProcess create(ErlProcess parent) {
        if (live.size() >= vm.limits.processes()) {
            if (parent != null) CrashReport.error(parent, "Too many processes\n"); // as erts logs it
            throw ErlangException.systemLimit();
        }
        int n = nextNumber.getAndIncrement();
        EPid pid = newPid(n);
        ErlProcess p = new ErlProcess(vm, pid);
        if (parent != null) p.parent = parent.pid;
        // Processes spawned from Java (the embedding API) get OTP's io server once it runs.
        Term user = parent == null ? vm.registry.whereis(EAtom.of("user")) : null;
        p.groupLeader = parent != null ? parent.groupLeader : user instanceof EPid u ? u : pid;
        p.module = SYSTEM;
        p.pc = PC_START;
        p.stk[0] = EXIT_ADDR;
        p.sp = 1;
        live.put(n, p);
        return p;
    }

    /** Spawns {@code M:F(Args)}. The process is runnable when this returns (unless {@code start} is false). */
    public ErlProcess spawn(ErlProcess parent, EAtom m, EAtom f, Term[] args, SpawnOptions opts) {
        ErlProcess p = create(parent);
        p.initialCall = ETuple.of(m, f, ESmall.of(args.length));
        p.startExport = vm.exports.get(m, f, args.length);
        p.xsave = args.length > 0 ? args.clone() : p.xsave;
        p.live = args.length;
        return start(parent, p, opts, traced(parent) ? ETuple.of(m, f, ECons.of(args)) : null);
    }

    /** Spawns a fun of arity 0. */
    private static final Term APPLY_2 = ETuple.of(EAtom.of("erlang"), EAtom.of("apply"), ESmall.of(2));

    public ErlProcess spawnFun(ErlProcess parent, EFun fun, SpawnOptions opts) {
        ErlProcess p = create(parent);
        // erts spawns a fun as erlang:apply(Fun, []): that is the initial call it reports, for any fun.
        p.initialCall = APPLY_2;
        p.startFun = fun;
        p.live = 0;
        return start(parent, p, opts, traced(parent) ? ETuple.of(EAtom.ERLANG, APPLY, ECons.of(fun, ENil.NIL)) : null);
    }

    private static final EAtom APPLY = EAtom.of("apply");

    /** Whether a spawn by {@code parent} is a trace event (its {M, F, Args} is then built). */
    private boolean traced(ErlProcess parent) { return parent != null && parent.trace != null || vm.traceNew != null; }

    /** {@code mfa}: the {M, F, Args} of a traced spawn, else null. */
    private ErlProcess start(ErlProcess parent, ErlProcess p, SpawnOptions opts, Term mfa) {
        if (mfa != null) org.jbeam.trace.Tracing.spawned(parent, p, mfa);
        if (parent != null && parent.seqToken != null) org.jbeam.trace.SeqTrace.spawned(parent, p);
        if (opts != null) {
            if (opts.link && parent != null) {
                p.links.add(parent.pid);
                synchronized (parent) { parent.links.add(p.pid); }
                if (parent.trace != null || p.trace != null) org.jbeam.trace.Tracing.linked(parent, p.pid, p);
            }
            if (opts.monitorRef != null && parent != null) {
                ErlProcess.Monitor mon = new ErlProcess.Monitor(opts.monitorRef, parent.pid, p.pid, p.pid, false, opts.monitorTag);
                p.monitoredBy.put(opts.monitorRef, mon);
                parent.monitors.put(opts.monitorRef, mon);
            }
            if (opts.priority != null) p.priority = opts.priority;
            if (opts.messageQueueData != null) p.messageQueueData = opts.messageQueueData;
            if (opts.gc != null) p.gc = opts.gc;
            if (opts.watchExit) vm.exitFuture(p.pid); // registered before it can run and exit
            if (opts.groupLeader != null) p.groupLeader = opts.groupLeader;
        }
        if (opts == null || !opts.hold) vm.scheduler.enqueue(p);
        return p;
    }

    /** Makes a process spawned with {@code hold} runnable. */
    public void release(ErlProcess p) { vm.scheduler.enqueue(p); }

    private static final EAtom INIT = EAtom.of("init");

    /**
     * init is one of erts' system processes: when it dies the node goes down, with the reason as
     * the crash dump's slogan and exit status 1 (a bad -eval/-run argument list crashes init in
     * prepare_run_args, for instance).
     */
    private void systemProcessDied(ErlProcess p, Term reason) {
        org.jbeam.bif.CrashDump.write(vm, "System process " + TermPrinter.display(p.pid) + " terminated: " + TermPrinter.display(reason));
        vm.halt(1);
    }

    /** Terminates {@code p} with {@code reason}: notify links and monitors, release everything. */
    public void exit(ErlProcess p, Term reason) {
        List<EPid> links;
        List<ErlProcess.Monitor> watchers;
        synchronized (p) {
            if (p.status.get() == ErlProcess.EXITED) return;
            if (p.trace != null) org.jbeam.trace.Tracing.exited(p, reason);
            if (p.registeredName == INIT && reason != EAtom.NORMAL) systemProcessDied(p, reason);
            p.status.set(ErlProcess.EXITED);
            p.exitReason = reason;
            links = new ArrayList<>(p.links);
            watchers = new ArrayList<>(p.monitoredBy.values());
            p.links.clear();
            p.monitoredBy.clear();
        }
        Signals.cancelReceiveTimer(p);
        if (p.registeredName != null) vm.registry.unregister(p.registeredName);
        // erts releases tables and safe_fixtable fixes before the exit signals go out, so a
        // monitor's 'DOWN' guarantees ets:info(T, fixed) already reflects the release.
        org.jbeam.ets.EtsTables.ownerExited(vm, p);
        // A distribution controller's connection is down before its links and monitors fire (as
        // erl: a 'DOWN' for the controller finds the node gone from nodes()).
        vm.dist.controllerExited(p.pid, reason);
        for (EPid l : links) vm.sendSignal(l, new Signals.Exit(p.pid, reason, true));
        for (ErlProcess.Monitor m : watchers) vm.sendSignal(m.watcher(), new Signals.Down(m.ref(), downMessage(m, reason)));
        // Signals that arrived after the exit: answer links and monitors with noproc.
        Object o;
        while ((o = p.inbox.poll()) != null) {
            if (o instanceof Signals.Link l) vm.sendSignal(l.from(), new Signals.Exit(p.pid, EAtom.NOPROC, true));
            else if (o instanceof Signals.Monitor m) vm.sendSignal(m.monitor().watcher(), new Signals.Down(m.monitor().ref(), downMessage(m.monitor(), EAtom.NOPROC)));
        }
        releaseSuspensions(p);
        vm.ports.processExited(p);
        vm.drivers.processExited(p.pid);
        org.jbeam.file.FileHandle.ownerExited(p);
        org.jbeam.socket.SocketNifs.processExited(p);
        org.jbeam.nif.NifReaper.processExited(p);
        live.remove(p.pid.number | (p.pid.serial << 15));
        p.pid.process = null;
        p.stk = null;
        p.xsave = null;
        vm.processExited(p, reason);
    }

    /** A suspender's exit resumes what it suspended, as in erts (its suspend counts are dropped). */
    private void releaseSuspensions(ErlProcess p) {
        java.util.Set<EPid> s;
        synchronized (p) { s = p.suspending; p.suspending = null; }
        if (s == null) return;
        for (EPid pid : s) {
            if (!(vm.resolve(pid) instanceof ErlProcess q)) continue;
            boolean wake;
            synchronized (q) {
                if (q.suspendedBy == null || q.suspendedBy.remove(p.pid) == null) continue;
                wake = q.suspendedBy.isEmpty();
                if (wake) q.suspendedBy = null;
            }
            if (wake) q.wake();
        }
    }

    static Term downMessage(ErlProcess.Monitor m, Term reason) {
        return ETuple.of(m.tag(), m.ref(), EAtom.PROCESS, m.targetName(), reason);
    }

    /** Options of spawn_opt that this runtime honours. */
    public static final class SpawnOptions {
        public boolean link;
        public ERef monitorRef;
        public EAtom priority;
        /** spawn_opt {monitor, [{tag, T}]}: the first element of the 'DOWN' message. */
        public Term monitorTag = EAtom.DOWN;
        public EAtom messageQueueData;
        /** spawn_opt's min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size. */
        public GcOptions gc;
        public EPid groupLeader;
        /** The embedding API will await this process's exit reason. */
        public boolean watchExit;
        /** Not runnable yet: the caller finishes set-up (a remote spawn reply) and then calls {@link ProcessTable#release}. */
        public boolean hold;
    }
}
