package org.jbeam.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.term.*;

/**
 * Ports. This first version provides file-descriptor ports ({@code open_port({fd, In, Out}, Opts)})
 * over the runtime's standard streams, which is what OTP's {@code user} and {@code standard_error}
 * io servers use; spawn/driver ports come with the I/O work.
 */
public final class Ports {
    /** An open port. */
    public static final class Port {
        public final EPort id;
        public volatile EPid owner;
        final OutputStream out;
        final InputStream in;
        final boolean binary, eof;
        volatile boolean closed;
        public EAtom name;
        /** The driver behind a {spawn_driver, Name} port (null for fd ports). */
        public volatile Driver driver;
        /** port_info(P, name): "In/Out" for an fd port (openFd), the driver's name otherwise (openDriver). */
        public String driverName;
        /** Processes linked to this port: the opener, later owners (port_connect links the new one, the old
         *  stays until it unlinks) and link/1 callers. process_info(P, links) lists the port for each. */
        public final java.util.Set<EPid> links = ConcurrentHashMap.newKeySet();
        /** The reason the port is closing with (exit/2, driver exit), while its driver stops. */
        public volatile Term closeReason;
        /** monitor(port, P): reference → the watcher's monitor; each gets its 'DOWN' (or tag) when the port closes. */
        public final ConcurrentHashMap<ERef, ErlProcess.Monitor> monitors = new ConcurrentHashMap<>();
        /** port_set_data/port_get_data. */
        public volatile Term data = EAtom.UNDEFINED;

        Port(EPort id, EPid owner, OutputStream out, InputStream in, boolean binary, boolean eof) {
            this.id = id; this.owner = owner; this.out = out; this.in = in; this.binary = binary; this.eof = eof;
            links.add(owner);
        }

        public boolean isClosed() { return closed; }
    }

    /** A linked-in driver emulation (erts' driver_entry): control, output and stop callbacks. */
    public interface Driver {
        /** port_control/3: returns the reply term (a byte list). */
        Term control(ErlProcess caller, int op, byte[] data);
        /** port_command/2,3. */
        void output(ErlProcess caller, byte[] data);
        /** The port is closing (port_close, owner exit or the driver's own exit). */
        void stop();
        /** Whether port_close also sends exit reason normal to the (linked) owner, as erts does for spawn ports. */
        default boolean linkedOwnerOnClose() { return false; }
        /** Bytes this port has received from outside and delivered (port_info input, statistics(io)). */
        default long bytesIn() { return 0; }
        /** Bytes this port has sent out. */
        default long bytesOut() { return 0; }
    }

    /** Bytes read and written by fd ports (standard input and output). */
    private final java.util.concurrent.atomic.LongAdder fdIn = new java.util.concurrent.atomic.LongAdder(),
            fdOut = new java.util.concurrent.atomic.LongAdder();
    /** Input and output of driver ports that have closed. */
    private final java.util.concurrent.atomic.LongAdder closedIn = new java.util.concurrent.atomic.LongAdder(),
            closedOut = new java.util.concurrent.atomic.LongAdder();

    /** statistics(io): {input bytes, output bytes} through every port since start. */
    public long[] ioTotals() {
        long in = fdIn.sum() + closedIn.sum(), out = fdOut.sum() + closedOut.sum();
        for (Port p : ports.values()) {
            Driver d = p.driver;
            if (d != null) { in += d.bytesIn(); out += d.bytesOut(); }
        }
        return new long[] {in, out};
    }

    private final Runtime vm;
    private final ConcurrentHashMap<Long, Port> ports = new ConcurrentHashMap<>();
    /** Open ports by owner: a process exit closes its own without scanning every port (10,000 sockets). */
    private final ConcurrentHashMap<EPid, java.util.Set<Port>> byOwner = new ConcurrentHashMap<>();

    /**
     * Open ports by linked process (each port's {@link Port#links}, indexed): a linked process's
     * abnormal exit closes the port (a former owner's too) and process_info(P, links) lists them,
     * without scanning every port.
     */
    private final ConcurrentHashMap<EPid, java.util.Set<Port>> byLinked = new ConcurrentHashMap<>();

    /** {@code o} owns {@code p}, and is linked to it (the port's constructor or port_connect put it in its links). */
    private void own(Port p, EPid o) {
        add(byOwner, o, p);
        add(byLinked, o, p);
    }

    private void disown(Port p, EPid o) { remove(byOwner, o, p); }

    private static void add(ConcurrentHashMap<EPid, java.util.Set<Port>> m, EPid pid, Port p) {
        m.compute(pid, (k, s) -> {
            if (s == null) s = ConcurrentHashMap.newKeySet();
            s.add(p);
            return s;
        });
    }

    private static void remove(ConcurrentHashMap<EPid, java.util.Set<Port>> m, EPid pid, Port p) {
        m.computeIfPresent(pid, (k, s) -> {
            s.remove(p);
            return s.isEmpty() ? null : s;
        });
    }

    /** link(Port) from {@code pid}. */
    public void link(Port port, EPid pid) {
        port.links.add(pid);
        add(byLinked, pid, port);
    }

    /** unlink(Port) from {@code pid}. */
    public void unlink(Port port, EPid pid) {
        port.links.remove(pid);
        remove(byLinked, pid, port);
    }

    /** port_connect: {@code np} becomes the owner. */
    public void setOwner(Port port, EPid np) {
        EPid old = port.owner;
        port.owner = np;
        if (port.closed) return;
        port.links.add(np);
        own(port, np);
        if (!old.equals(np)) disown(port, old);
    }
    /**
     * Port numbers. #Port<0.0> is erts' forker port (the link to erl_child_setup, opened first at
     * boot); jbeam spawns without one but leaves the number unused, so the ports a program opens
     * get the identifiers erl gives them (tests print them).
     */
    private final AtomicLong next = new AtomicLong(1);

    Ports(Runtime vm) { this.vm = vm; }

    public Port get(Term t) {
        if (t instanceof EPort p) {
            // The identifier made by open_port points at its open port: no boxed-key map lookup on the
            // data path (port_get_data, prim_inet:send/recv0 on every gen_tcp call).
            if (p.port instanceof Port pt && !pt.closed) return pt;
            return ports.get(p.id);
        }
        return null;
    }

    public java.util.Collection<Port> all() { return ports.values(); }

    /** open_port({fd, In, Out}, Opts). */
    public EPort openFd(ErlProcess owner, int inFd, int outFd, boolean binary, boolean eof, boolean readIn) {
        EPort id = new EPort(vm.nodeName, next.getAndIncrement(), 0);
        OutputStream out = outFd == 1 ? vm.stdout : outFd == 2 ? vm.stderr : null;
        InputStream in = inFd == 0 && readIn ? vm.stdin : null;
        Port port = new Port(id, owner.pid, out, in, binary, eof);
        port.driverName = inFd + "/" + outFd;   // erts names an fd port "In/Out"
        id.port = port;
        ports.put(id.id, port);
        own(port, port.owner);
        if (in != null) startReader(port);
        return id;
    }

    /** open_port({spawn_driver, Name}, _): a port backed by {@code driver}, owned by {@code owner}. */
    public EPort openDriver(EPid owner, String name, java.util.function.Function<Port, Driver> driver) {
        EPort id = new EPort(vm.nodeName, next.getAndIncrement(), 0);
        Port port = new Port(id, owner, null, null, true, false);
        port.driverName = name;
        port.driver = driver.apply(port);
        id.port = port;
        ports.put(id.id, port);
        own(port, owner);
        return id;
    }

    /**
     * driver_exit(Port, 0): the driver terminates its port with reason normal, and (as erts'
     * driver_failure_term, which drops normal exits) no linked process hears of it: a trapping
     * owner of an exit_on_close socket gets {tcp_closed, S} but no {'EXIT', S, normal}.
     */
    public void driverExit(Port port) { closeWith(port, EAtom.NORMAL, false, false); }

    /** The port exits with {@code reason}: closed, and the owner (linked) gets the exit signal. */
    public void exit(Port port, Term reason) {
        closeWith(port, reason, true, true);
    }

    private void startReader(Port port) {
        Thread t = Thread.ofPlatform().daemon(true).name("jbeam-fd-reader").start(() -> {
            byte[] buf = new byte[4096];
            try {
                int n;
                while (!port.closed && (n = port.in.read(buf)) >= 0) {
                    if (n == 0) continue;
                    fdIn.add(n);
                    byte[] data = java.util.Arrays.copyOf(buf, n);
                    Term payload = port.binary ? EBitString.of(data) : bytesToList(data);
                    vm.sendTo(port.owner, ETuple.of(port.id, ETuple.of(EAtom.of("data"), payload)));
                }
                if (port.eof && !port.closed) vm.sendTo(port.owner, ETuple.of(port.id, EAtom.of("eof")));
            } catch (IOException e) {
                // stdin closed under us: nothing more to deliver
            }
        });
        t.setUncaughtExceptionHandler((th, e) -> vm.logInternal(e));
    }

    static Term bytesToList(byte[] b) {
        EList l = ENil.NIL;
        for (int i = b.length - 1; i >= 0; i--) l = new ECons(ESmall.of(b[i] & 0xFF), l);
        return l;
    }

    /** port_command: write iodata. */
    public void command(Port port, byte[] data) {
        if (port.closed || port.out == null) throw ErlangException.badarg();
        if (vm.halting) return; // the node is halting: as on erts, no one else's output goes out
        fdOut.add(data.length);
        try {
            synchronized (port.out) {
                port.out.write(data);
                port.out.flush();
            }
        } catch (IOException e) {
            throw ErlangException.badarg();
        }
    }

    public void close(Port port) {
        closeWith(port, EAtom.NORMAL, true, port.driver != null && port.driver.linkedOwnerOnClose());
    }

    /** monitor(port, Port): false if the port is closed (the caller answers noproc). */
    public boolean monitor(Port port, ERef ref, ErlProcess.Monitor watcher) {
        port.monitors.put(ref, watcher);
        if (!port.closed) return true;
        return port.monitors.remove(ref) == null; // closeWith raced us and already sent 'DOWN'
    }

    /**
     * Closes the port; processes linked to it besides the owner get {@code reason}, and the owner
     * too when {@code signalOwner}. As in erts, the owner's exit signal goes before the monitors'
     * 'DOWN' messages. False if it was closed already.
     */
    private boolean closeWith(Port port, Term reason, boolean signalLinks, boolean signalOwner) {
        EPid owner = port.owner;
        synchronized (port) {
            if (port.closed) return false;
            port.closed = true;
        }
        port.closeReason = reason;
        ports.remove(port.id.id);
        disown(port, port.owner);
        port.id.port = null;
        Driver d = port.driver;
        if (d != null) {
            closedIn.add(d.bytesIn());
            closedOut.add(d.bytesOut());
            try {
                d.stop();
            } catch (RuntimeException e) {
                vm.logInternal(e);
            }
        }
        if (signalOwner && port.links.contains(owner)) vm.exitSignal(port.id, owner, reason, true);
        for (ERef r : port.monitors.keySet()) {
            ErlProcess.Monitor w = port.monitors.remove(r); // remove, not clear: a racing monitor/3 sees whether it was answered
            if (w != null) vm.sendSignal(w.watcher(), new Signals.Down(r, ETuple.of(w.tag(), r, EAtom.of("port"), port.id, reason)));
        }
        if (signalLinks) for (EPid l : port.links) if (!l.equals(port.owner)) vm.exitSignal(port.id, l, reason, true);
        for (EPid l : port.links) remove(byLinked, l, port);
        port.links.clear();
        return true;
    }

    /** The open ports linked to {@code pid}, for process_info(P, links). */
    public java.util.List<EPort> linkedTo(EPid pid) {
        java.util.List<EPort> out = new java.util.ArrayList<>();
        java.util.Set<Port> linked = byLinked.get(pid);
        if (linked != null) for (Port p : linked) if (!p.closed && p.links.contains(pid)) out.add(p.id);
        out.sort(java.util.Comparator.comparingLong(e -> e.id)); // in opening order, as the port table lists them
        return out;
    }

    /**
     * {@code p} exited: the ports it owns close with its reason; a port it was linked to without
     * owning it (link/1, or a former owner after port_connect) hears its exit signal like any:
     * normal leaves the port open, anything else closes it with that reason (the owner hears it).
     */
    void processExited(ErlProcess p) {
        Term reason = p.exitReason == null ? EAtom.NORMAL : p.exitReason;
        java.util.Set<Port> linked = byLinked.remove(p.pid);
        if (linked != null) {
            for (Port port : linked) {
                if (port.links.remove(p.pid) && reason != EAtom.NORMAL && !port.owner.equals(p.pid)) closeWith(port, reason == EAtom.KILL ? EAtom.KILLED : reason, true, true);
            }
        }
        java.util.Set<Port> owned = byOwner.get(p.pid);
        if (owned == null) return;
        for (Port port : owned.toArray(new Port[0])) {
            if (port.owner.equals(p.pid)) {
                closeWith(port, p.exitReason == null ? EAtom.NORMAL : p.exitReason, true, false); // the port exits with its owner's reason
                if (port.name != null) vm.registry.unregister(port.name);
            }
        }
    }
}
