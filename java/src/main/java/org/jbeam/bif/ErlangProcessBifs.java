package org.jbeam.bif;

import org.jbeam.interp.Interpreter;
import org.jbeam.interp.Trap;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Registry;
import org.jbeam.runtime.ProcessTable.SpawnOptions;
import org.jbeam.term.*;

/**
 * erlang BIFs about processes: spawning, links, exits and exceptions, registered names, sending,
 * process flags, apply; monitors ({@link MonitorBifs}) and the process dictionary
 * ({@link ProcessDictionary}) are registered from here too.
 */
public final class ErlangProcessBifs implements BifModule {
    private static final String E = "erlang";
    private static final EAtom TRAP_EXIT = EAtom.of("trap_exit"), PRIORITY = EAtom.of("priority"),
            LINK = EAtom.of("link"), MONITOR = EAtom.of("monitor"), GROUP_LEADER = EAtom.of("group_leader");

    @Override
    public void register(BifTable t) {
        t.guard0(E, "self", p -> p.pid);
        t.bif1(E, "spawn", (p, f) -> spawnFun(p, f, null).pid);
        t.bif3(E, "spawn", (p, m, f, a) -> spawnMfa(p, m, f, a, null).pid);
        t.bif1(E, "spawn_link", (p, f) -> spawnFun(p, f, opts(true, null)).pid);
        t.bif3(E, "spawn_link", (p, m, f, a) -> spawnMfa(p, m, f, a, opts(true, null)).pid);
        t.bif1(E, "spawn_monitor", (p, f) -> { ERef r = p.vm.makeRef(); return ETuple.of(spawnFun(p, f, opts(false, r)).pid, r); });
        t.bif3(E, "spawn_monitor", (p, m, f, a) -> { ERef r = p.vm.makeRef(); return ETuple.of(spawnMfa(p, m, f, a, opts(false, r)).pid, r); });
        t.bif2(E, "spawn_opt", (p, f, o) -> spawnOptResult(p, o, so -> spawnFun(p, f, so)));
        t.bifN(E, "spawn_opt", 4, (p, a) -> spawnOptResult(p, a[3], so -> spawnMfa(p, a[0], a[1], a[2], so)));
        t.bif1(E, "link", ErlangProcessBifs::link);
        t.bif1(E, "unlink", ErlangProcessBifs::unlink);
        MonitorBifs.register(t);
        t.bif1(E, "exit", (p, r) -> { throw ErlangException.raised(ErlangException.EXIT, r); });
        t.bif2(E, "exit", ErlangProcessBifs::exit2);
        t.bif1(E, "error", (p, r) -> { throw ErlangException.raised(EAtom.ERROR, r); });
        t.bif2(E, "error", (p, r, a) -> { throw errorWithArgs(r, a, null); });
        t.bif3(E, "error", (p, r, a, o) -> { throw errorWithArgs(r, a, o); });
        t.bif1(E, "throw", (p, r) -> { throw ErlangException.raised(EAtom.THROW, r); });
        t.bif3(E, "raise", ErlangProcessBifs::raise);
        t.bif1(E, "nif_error", (p, r) -> { throw ErlangException.raised(EAtom.ERROR, r); });
        t.bif2(E, "nif_error", (p, r, a) -> { throw errorWithArgs(r, a, null); });
        t.bif2(E, "register", ErlangProcessBifs::register);
        t.bif1(E, "unregister", (p, n) -> {
            if (!(n instanceof EAtom a) || !p.vm.registry.unregister(a)) throw ErlangException.badarg();
            return EAtom.TRUE;
        });
        t.bif1(E, "whereis", (p, n) -> {
            if (!(n instanceof EAtom a)) throw ErlangException.badarg();
            Term r = p.vm.registry.whereis(a);
            return r == null ? EAtom.UNDEFINED : r;
        });
        t.bif0(E, "registered", p -> ECons.of(p.vm.registry.names()));
        t.bif2(E, "send", ErlangProcessBifs::send2);
        t.bif3(E, "send", ErlangProcessBifs::send3);
        t.bif2(E, "!", ErlangProcessBifs::send2);
        t.bif0(E, "make_ref", p -> p.vm.makeRef());
        t.bif2(E, "process_flag", ErlangProcessBifs::processFlag);
        // process_flag/3 (erlang.erl wraps this): only save_calls may be set on another process;
        // the atom badarg makes the wrapper raise badarg with error info, as erts.
        t.bif3("erts_internal", "process_flag", (p, pid, flag, value) -> {
            if (!(pid instanceof EPid x) || flag != SAVE_CALLS || !validSaveCalls(value)) return EAtom.of("badarg");
            if (!(p.vm.resolve(x) instanceof ErlProcess q) || !q.isAlive()) return EAtom.of("badarg");
            return saveCalls(q, value);
        });
        t.bif0(E, "group_leader", p -> p.groupLeader);
        t.bif2(E, "group_leader", (p, gl, pid) -> {
            if (!(gl instanceof EPid g) || !(pid instanceof EPid target)) throw ErlangException.badarg();
            if (target.node != p.vm.nodeName) { p.vm.dist.groupLeader(g, target); return EAtom.TRUE; }
            if (!(p.vm.resolve(target) instanceof ErlProcess tp)) throw ErlangException.badarg();
            tp.groupLeader = g;
            return EAtom.TRUE;
        });
        t.bif1(E, "is_process_alive", (p, pid) -> {
            if (!(pid instanceof EPid x) || x.node != p.vm.nodeName) throw ErlangException.badarg();
            if (x.process instanceof org.jbeam.runtime.SignalSink s) return EAtom.of(s.alive());   // a Java mailbox
            return EAtom.of(p.vm.resolve(x) instanceof ErlProcess q && q.isAlive());
        });
        t.bif0(E, "processes", p -> {
            java.util.List<Term> l = new java.util.ArrayList<>();
            for (ErlProcess q : p.vm.processes.all()) l.add(q.pid);
            l.sort(TermOrder::compare);
            return ECons.of(l);
        });
        t.bif0(E, "yield", p -> Trap.YIELD);
        t.bif2(E, "apply", (p, f, a) -> {
            Term[] args = ECons.toArray(a);
            if (args == null) throw ErlangException.badarg();
            if (!(f instanceof EFun fun)) {
                if (f instanceof ETuple tf && tf.arity() == 2 && tf.get(0) instanceof EAtom m && tf.get(1) instanceof EAtom fn)
                    return Trap.call(p.vm.exports.get(m, fn, args.length), args);
                throw ErlangException.error(ETuple.of(EAtom.BADFUN, f));
            }
            return Trap.callFun(fun, args);
        });
        t.bif3(E, "apply", (p, m, f, a) -> {
            Term[] args = ECons.toArray(a);
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || args == null) throw ErlangException.badarg();
            return Trap.call(p.vm.exports.get(ma, fa, args.length), args);
        });
        ProcessDictionary.register(t);
    }

    private static final EAtom ERROR_INFO = EAtom.ERROR_INFO;
    private static final EAtom MQD = EAtom.of("message_queue_data"), SAVE_CALLS = EAtom.of("save_calls");
    private static final EAtom NOCONNECT = EAtom.of("noconnect"), NOSUSPEND = EAtom.of("nosuspend");

    /**
     * erlang:send/2 and !: a send that left a distribution connection over its busy limit
     * suspends the sender until the connection's queue drains (the message is sent), as erts.
     */
    static Term send2(ErlProcess p, Term dest, Term msg) {
        p.vm.send(p, dest, msg);
        if (p.busyDist != null && p.vm.dist.suspendBusySender(p)) return Trap.yieldThen(() -> msg);
        return msg;
    }

    /**
     * erlang:send/3. Options are nosuspend and noconnect only (else badarg). With nosuspend a
     * message to a node whose connection is busy is not sent and the result is nosuspend; one that
     * is sent never suspends the sender. With noconnect a message to a node with no connection (up
     * or pending) is not sent and the result is noconnect.
     */
    static Term send3(ErlProcess p, Term dest, Term msg, Term opts) {
        // Walked in place: gen:do_call sends every gen_server:call request with [noconnect].
        boolean noconnect = false, nosuspend = false;
        Term l = opts;
        for (; l instanceof ECons c; l = c.tail) {
            if (c.head == NOCONNECT) noconnect = true;
            else if (c.head == NOSUSPEND) nosuspend = true;
            else throw ErlangException.badarg();
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        if (noconnect || nosuspend) {
            EAtom node = dest instanceof EPid pid && pid.node != p.vm.nodeName ? pid.node
                    : dest instanceof ERef r && r.node != p.vm.nodeName ? r.node
                    : dest instanceof ETuple t && t.arity() == 2 && t.get(0) instanceof EAtom && t.get(1) instanceof EAtom n
                            && n != p.vm.thisNode ? n : null;
            // Only a send that would have to start a connection is refused: gen:call monitors a
            // remote name first (which starts connecting) and then sends with noconnect.
            if (noconnect && node != null && !p.vm.dist.hasConnection(node)) return NOCONNECT;
            if (nosuspend && node != null && p.vm.dist.isBusy(node)) return NOSUSPEND;
        }
        p.vm.send(p, dest, msg);
        if (p.busyDist != null) {
            if (nosuspend) p.busyDist = null;
            else if (p.vm.dist.suspendBusySender(p)) return Trap.yieldThen(() -> EAtom.OK);
        }
        return EAtom.OK;
    }

    /** erlang:error/2,3: the caller's frame shows Args (and error_info from the options). */
    private static ErlangException errorWithArgs(Term reason, Term args, Term opts) {
        if (ECons.length(args) < 0 && args != EAtom.NONE) throw ErlangException.badarg();
        ErlangException ex = ErlangException.raised(EAtom.ERROR, reason);
        if (args instanceof EList) ex.currentArgs = args;
        if (opts != null) {
            Term[] os = ECons.toArray(opts);
            if (os == null) throw ErlangException.badarg();
            for (Term o : os)
                if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == ERROR_INFO) ex.currentErrorInfo = t.get(1);
        }
        return ex;
    }

    // ---- spawning ----

    private static SpawnOptions opts(boolean link, ERef monitor) {
        SpawnOptions o = new SpawnOptions();
        o.link = link;
        o.monitorRef = monitor;
        return o;
    }

    private static ErlProcess spawnFun(ErlProcess p, Term f, SpawnOptions o) {
        if (!(f instanceof EFun fun)) throw ErlangException.badarg();
        // As erlang.erl: any fun is spawned as erlang:apply(F, []); a wrong arity fails in the new process.
        if (fun.arity() != 0) return p.vm.processes.spawn(p, EAtom.of("erlang"), EAtom.of("apply"), new Term[] {f, ENil.NIL}, o);
        return p.vm.processes.spawnFun(p, fun, o);
    }

    private static ErlProcess spawnMfa(ErlProcess p, Term m, Term f, Term a, SpawnOptions o) {
        Term[] args = ECons.toArray(a);
        if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || args == null) throw ErlangException.badarg();
        return p.vm.processes.spawn(p, ma, fa, args, o);
    }

    /** spawn_request's spawn: spawn_opt options; req[0] gets the request id (the monitor reference if monitored). */
    static Term spawnOptRequest(ErlProcess p, Term optList, Term m, Term f, Term a, ERef[] req) {
        Term r = spawnOptResult(p, optList, so -> spawnMfa(p, m, f, a, so));
        req[0] = r instanceof ETuple t ? (ERef) t.get(1) : p.vm.makeRef();
        return r;
    }

    private static Term spawnOptResult(ErlProcess p, Term optList, java.util.function.Function<SpawnOptions, ErlProcess> spawn) {
        Term[] os = ECons.toArray(optList);
        if (os == null) throw ErlangException.ertsBadarg("badopt");
        SpawnOptions so = new SpawnOptions();
        boolean monitor = false;
        for (Term o : os) {
            if (o == LINK) so.link = true;
            else if (o == MONITOR) monitor = true;
            else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == PRIORITY && t.get(1) instanceof EAtom pr
                    && java.util.Set.of("low", "normal", "high", "max").contains(pr.name)) so.priority = pr;
            else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == MONITOR && ECons.toArray(t.get(1)) instanceof Term[] mos) {
                monitor = true;
                for (Term mo : mos) {
                    if (mo instanceof ETuple mt && mt.arity() == 2 && mt.get(0) == MonitorBifs.TAG) so.monitorTag = mt.get(1);
                    else throw ErlangException.ertsBadarg("badopt");
                }
            }
            else if (!heapOption(o)) throw ErlangException.ertsBadarg("badopt");
            else if (o instanceof ETuple t && t.get(0) == MQD) so.messageQueueData = (EAtom) t.get(1);
            else if (o instanceof ETuple t) {
                org.jbeam.runtime.GcOptions g = gcOption(so.gc != null ? so.gc : org.jbeam.runtime.GcOptions.DEFAULT, (EAtom) t.get(0), t.get(1));
                if (g == null) throw ErlangException.ertsBadarg("badopt");
                if (g != org.jbeam.runtime.GcOptions.DEFAULT) so.gc = g;
            }
        }
        if (monitor) so.monitorRef = p.vm.makeRef();
        ErlProcess child = spawn.apply(so);
        return monitor ? ETuple.of(child.pid, so.monitorRef) : child.pid;
    }

    /** GC and queue options jbeam accepts but has no use for (one heap, the JVM's); checked as OTP does. */
    private static boolean heapOption(Term o) {
        if (!(o instanceof ETuple t) || t.arity() != 2 || !(t.get(0) instanceof EAtom k)) return false;
        Term v = t.get(1);
        boolean size = v instanceof ESmall s && s.value >= 0;
        return switch (k.name) {
            case "min_heap_size", "min_bin_vheap_size", "fullsweep_after" -> size;
            case "max_heap_size" -> size || v instanceof EMap;
            case "message_queue_data" -> v == EAtom.of("off_heap") || v == EAtom.of("on_heap");
            case "async_dist" -> v == EAtom.TRUE || v == EAtom.FALSE;
            default -> false;
        };
    }

    /**
     * {@code gc} with one GC setting changed (spawn_opt, process_flag); {@code gc} itself for the
     * options that are not GC settings (async_dist); null when OTP raises badarg.
     */
    private static org.jbeam.runtime.GcOptions gcOption(org.jbeam.runtime.GcOptions gc, EAtom k, Term v) {
        boolean size = v instanceof ESmall s && s.value >= 0;
        long n = size ? ((ESmall) v).value : 0;
        return switch (k.name) {
            case "min_heap_size" -> size ? gc.withMinHeapSize(n) : null;
            case "min_bin_vheap_size" -> size ? gc.withMinBinVheapSize(n) : null;
            case "fullsweep_after" -> size ? gc.withFullsweepAfter(n) : null;
            case "max_heap_size" -> gc.withMaxHeapSize(v);
            default -> gc;
        };
    }

    // ---- links, exits ----

    private static Term link(ErlProcess p, Term t) {
        if (t instanceof EPort port) {
            org.jbeam.runtime.Ports.Port pt = p.vm.ports.get(port);
            if (pt == null) {
                if (p.trapExit) { p.deliver(ETuple.of(EAtom.EXIT, port, EAtom.NOPROC)); return EAtom.TRUE; }
                throw ErlangException.error(EAtom.NOPROC);
            }
            p.vm.ports.link(pt, p.pid);
            return EAtom.TRUE;
        }
        if (!(t instanceof EPid pid)) throw ErlangException.badarg();
        if (pid.equals(p.pid)) return EAtom.TRUE;
        if (pid.node != p.vm.nodeName) {
            // A pid on another node: the link is ours at once; LINK goes over the connection
            // (noconnection comes back as an exit signal if there is none).
            synchronized (p) { p.links.add(pid); }
            p.vm.linkRemote(pid, p.pid);
            return EAtom.TRUE;
        }
        ErlProcess other = p.vm.resolve(pid);
        boolean alive;
        if (other == null) alive = false;
        else synchronized (other) {
            alive = other.isAlive();
            if (alive) other.links.add(p.pid);
        }
        if (!alive) {
            if (p.trapExit) { p.deliver(ETuple.of(EAtom.EXIT, pid, EAtom.NOPROC)); return EAtom.TRUE; }
            throw ErlangException.error(EAtom.NOPROC);
        }
        synchronized (p) { p.links.add(pid); }
        if (p.trace != null || other.trace != null) org.jbeam.trace.Tracing.linked(p, pid, other);
        return EAtom.TRUE;
    }

    private static Term unlink(ErlProcess p, Term t) {
        if (t instanceof EPort port) {
            org.jbeam.runtime.Ports.Port pt = p.vm.ports.get(port);
            if (pt != null) p.vm.ports.unlink(pt, p.pid);
            return EAtom.TRUE;
        }
        if (!(t instanceof EPid pid)) throw ErlangException.badarg();
        boolean had;
        synchronized (p) { had = p.links.remove(pid); }
        if (pid.node != p.vm.nodeName) {
            if (had) p.vm.unlinkRemote(pid, p.pid);
        } else if (p.vm.resolve(pid) instanceof ErlProcess other) {
            boolean otherHad;
            synchronized (other) { otherHad = other.links.remove(p.pid); }
            if (otherHad && other.trace != null) org.jbeam.trace.Tracing.gettingUnlinked(other, p.pid);
        }
        if (p.trace != null) org.jbeam.trace.Tracing.unlinked(p, pid);
        return EAtom.TRUE;
    }

    private static Term exit2(ErlProcess p, Term target, Term reason) {
        if (target instanceof EPid pid) {
            p.vm.exitSignal(p.pid, pid, reason, false);
            // exit(self(), R) takes effect before the next instruction, as in OTP: unless trap_exit
            // turned it into a message, the process is gone, and no catch in it sees the exit.
            if (pid.equals(p.pid) && !org.jbeam.runtime.Signals.drain(p)) throw Interpreter.exitNow(p);
            return EAtom.TRUE;
        }
        if (target instanceof EPort port) {
            // exit/2 to a port closes it whatever the reason, normal included (erts: only a linked
            // process's normal exit leaves a port open); its owner gets the reason, kill as killed.
            org.jbeam.runtime.Ports.Port pt = p.vm.ports.get(port);
            if (pt != null) p.vm.ports.exit(pt, reason == EAtom.KILL ? EAtom.KILLED : reason);
            return EAtom.TRUE;
        }
        throw ErlangException.badarg();
    }

    /**
     * erlang:raise/3. Invalid arguments make it return the atom badarg rather than raise (erts'
     * raise_3): a class other than error, exit or throw, or a stack trace that is not a proper list
     * of {M, F, ArityOrArgs[, Location]} / {Fun, ArityOrArgs[, Location]} entries with list locations.
     */
    private static Term raise(ErlProcess p, Term cls, Term reason, Term st) {
        if (!(cls instanceof EAtom c) || !(c == EAtom.ERROR || c == EAtom.THROW || c == ErlangException.EXIT) || !validStacktrace(st))
            return EAtom.BADARG;
        ErlangException ex = new ErlangException(c, reason);
        ex.stacktrace = st;
        throw ex;
    }

    private static boolean validStacktrace(Term st) {
        Term l = st;
        for (; l instanceof ECons cell; l = cell.tail) {
            if (!(cell.head instanceof ETuple t)) return false;
            Term location;
            switch (t.arity()) {
                case 2 -> { if (!(t.get(0) instanceof EFun)) return false; location = ENil.NIL; }
                case 3 -> {
                    if (t.get(0) instanceof EFun) location = t.get(2);
                    else if (t.get(0) instanceof EAtom && t.get(1) instanceof EAtom) location = ENil.NIL;
                    else return false;
                }
                case 4 -> {
                    if (!(t.get(0) instanceof EAtom && t.get(1) instanceof EAtom)) return false;
                    location = t.get(3);
                }
                default -> { return false; }
            }
            if (!(location instanceof ECons) && location != ENil.NIL) return false;
        }
        return l == ENil.NIL;
    }

    /** register/2 with erts' error_info causes: notalive (a dead process), registered_name (it has a name), else none. */
    private static Term register(ErlProcess p, Term n, Term who) {
        if (!(n instanceof EAtom name) || name == EAtom.UNDEFINED) throw ErlangException.ertsBadarg("none");
        if (who instanceof EPid pid) {
            ErlProcess q = p.vm.resolve(pid);     // also a pid from list_to_pid or binary_to_term
            if (q == null) throw ErlangException.ertsBadarg(pid.node == p.vm.nodeName ? "notalive" : "none");
            switch (p.vm.registry.register(name, q)) {
                case Registry.REGISTERED: return EAtom.TRUE;
                case Registry.NOT_ALIVE: throw ErlangException.ertsBadarg("notalive");
                case Registry.HAS_NAME: throw ErlangException.ertsBadarg("registered_name");
                default: throw ErlangException.ertsBadarg("none");
            }
        }
        if (who instanceof EPort port && p.vm.ports.get(port) != null) {
            if (!p.vm.registry.registerPort(name, port)) throw ErlangException.ertsBadarg("none");
            p.vm.ports.get(port).name = name;
            return EAtom.TRUE;
        }
        throw ErlangException.ertsBadarg("none");
    }

    /** A save_calls value: 0..10000. */
    private static boolean validSaveCalls(Term value) { return value instanceof ESmall v && v.value >= 0 && v.value <= 10000; }

    private static Term saveCalls(ErlProcess q, Term value) {
        if (!validSaveCalls(value)) throw ErlangException.badarg();
        int old = q.saveCalls;
        q.saveCalls = (int) ((ESmall) value).value;
        return ESmall.of(old);
    }

    private static Term processFlag(ErlProcess p, Term flag, Term value) {
        if (flag == EAtom.of("monitor_nodes") || flag instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.of("monitor_nodes")) {
            if (value != EAtom.TRUE && value != EAtom.FALSE) throw ErlangException.badarg();
            // The bare flag is the classic subscription: {nodeup, N} / {nodedown, N} for visible nodes.
            Term opts = flag instanceof ETuple t ? t.get(1) : EMap.of(new Term[] {EAtom.of("list")}, new Term[] {EAtom.TRUE});
            return ESmall.of(p.vm.dist.monitorNodes(p, opts, value == EAtom.TRUE));
        }
        if (flag == TRAP_EXIT) {
            if (value != EAtom.TRUE && value != EAtom.FALSE) throw ErlangException.badarg();
            boolean old = p.trapExit;
            p.trapExit = value == EAtom.TRUE;
            return EAtom.of(old);
        }
        if (flag == PRIORITY) {
            if (!(value instanceof EAtom a) || !java.util.Set.of("low", "normal", "high", "max").contains(a.name)) throw ErlangException.badarg();
            EAtom old = p.priority;
            p.priority = a;
            return old;
        }
        if (flag instanceof EAtom a) {
            switch (a.name) {
                case "min_heap_size", "min_bin_vheap_size", "max_heap_size", "fullsweep_after" -> {
                    org.jbeam.runtime.GcOptions old = p.gc, g = gcOption(old, a, value);
                    if (g == null) throw ErlangException.badarg();
                    p.gc = g;
                    return switch (a.name) {
                        case "min_heap_size" -> ESmall.of(old.minHeapSize);
                        case "min_bin_vheap_size" -> ESmall.of(old.minBinVheapSize);
                        case "fullsweep_after" -> ESmall.of(old.fullsweepAfter);
                        default -> old.maxHeapSizeTerm();
                    };
                }
                case "message_queue_data" -> {
                    if (value != EAtom.of("on_heap") && value != EAtom.of("off_heap")) throw ErlangException.badarg();
                    EAtom old = p.messageQueueData;
                    p.messageQueueData = (EAtom) value;
                    return old;
                }
                case "sensitive" -> {
                    if (value != EAtom.TRUE && value != EAtom.FALSE) throw ErlangException.badarg();
                    boolean old = p.sensitive;
                    p.sensitive = value == EAtom.TRUE;
                    return EAtom.of(old);
                }
                case "save_calls" -> {
                    if (!validSaveCalls(value)) throw ErlangException.ertsBadarg("none");
                    return saveCalls(p, value);
                }
                case "error_handler" -> {
                    if (!(value instanceof EAtom h)) throw ErlangException.badarg();
                    EAtom old = p.errorHandler;
                    p.errorHandler = h;
                    return old;
                }
                default -> {}
            }
        }
        // A flag erts does not know at all (as opposed to a bad value for a known one).
        throw ErlangException.ertsBadarg("badopt");
    }
}
