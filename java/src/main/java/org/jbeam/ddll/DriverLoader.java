package org.jbeam.ddll;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.EPort;

/**
 * erl_ddll's table of dynamically loaded drivers, for the drivers jbeam implements in Java
 * (runtime_tools' trace_file_drv and trace_ip_drv). Loading one needs its shared library in the
 * given directory, as on erts, but runs no native code: the name selects the Java driver. Once
 * loaded, {@code open_port({spawn, "Name Args"}, _)} reaches it (before that such a command is an
 * OS command, as on erts). As erts does, each load is counted per process, a process's loads go
 * when it exits, and the last one gone unloads the driver; with {@code kill_ports} its open ports
 * then exit with {@code driver_unloaded}.
 */
public final class DriverLoader {
    /** Starts a port of a Java driver for {@code command} (the driver name and its arguments). */
    public interface Starter { EPort start(ErlProcess owner, String command); }

    /** The drivers that can be loaded, by name. */
    private static final Map<String, Starter> KNOWN = Map.of(
            "trace_file_drv", org.jbeam.tracedrv.TraceFileDriver::start,
            "trace_ip_drv", org.jbeam.tracedrv.TraceIpDriver::start);

    /** The statically linked drivers (erl_ddll:loaded_drivers lists them first, in erts' order). */
    static final List<String> STATIC = List.of("tcp_inet", "udp_inet", "ram_file_drv", "tty_sl");

    /** A loaded driver: its users (process → loads), whether unloading kills its ports, its ports. */
    static final class Loaded {
        final String name;
        final boolean killPorts;
        final LinkedHashMap<EPid, Integer> users = new LinkedHashMap<>();
        final Set<Ports.Port> ports = ConcurrentHashMap.newKeySet();

        Loaded(String name, boolean killPorts) { this.name = name; this.killPorts = killPorts; }

        int portCount() {
            ports.removeIf(Ports.Port::isClosed);
            return ports.size();
        }
    }

    private final Runtime vm;
    /** Guarded by this, in load order. */
    private final LinkedHashMap<String, Loaded> loaded = new LinkedHashMap<>();
    /** Whether a driver is loaded: process exits and open_port look at the table only then. */
    private volatile boolean any;

    public DriverLoader(Runtime vm) { this.vm = vm; }

    static boolean known(String name) { return KNOWN.containsKey(name); }

    /** try_load of a Java driver whose library was found: "loaded", "already_loaded" or null when inconsistent. */
    synchronized String load(EPid by, String name, boolean killPorts) {
        Loaded l = loaded.get(name);
        String result = "already_loaded";
        if (l == null) {
            loaded.put(name, l = new Loaded(name, killPorts));
            result = "loaded";
        } else if (l.killPorts != killPorts) {
            return null;
        }
        l.users.merge(by, 1, Integer::sum);
        any = true;
        return result;
    }

    /** The outcome of try_unload. */
    enum Unload { NOT_LOADED, NOT_BY_THIS_PROCESS, PENDING_PROCESS, PENDING_DRIVER }

    Unload unload(EPid by, String name, boolean killPorts) {
        List<Ports.Port> kill;
        synchronized (this) {
            Loaded l = loaded.get(name);
            if (l == null) return Unload.NOT_LOADED;
            Integer n = l.users.get(by);
            if (n == null && !l.users.isEmpty()) return Unload.NOT_BY_THIS_PROCESS;
            if (n != null) { if (n > 1) l.users.put(by, n - 1); else l.users.remove(by); }
            if (!l.users.isEmpty()) return Unload.PENDING_PROCESS;
            loaded.remove(name);
            any = !loaded.isEmpty();
            kill = killPorts || l.killPorts ? new ArrayList<>(l.ports) : List.of();
        }
        killAll(kill);
        return Unload.PENDING_DRIVER;
    }

    /** A process exited: its loads go; drivers left without users are unloaded. */
    public void processExited(EPid pid) {
        if (!any) return;
        List<Ports.Port> kill = new ArrayList<>();
        synchronized (this) {
            for (var it = loaded.values().iterator(); it.hasNext(); ) {
                Loaded l = it.next();
                if (l.users.remove(pid) == null || !l.users.isEmpty()) continue;
                it.remove();
                if (l.killPorts) kill.addAll(l.ports);
            }
            any = !loaded.isEmpty();
        }
        killAll(kill);
    }

    private void killAll(List<Ports.Port> ports) {
        for (Ports.Port p : ports) if (!p.isClosed()) vm.ports.exit(p, EAtom.of("driver_unloaded"));
    }

    synchronized Loaded get(String name) { return loaded.get(name); }

    synchronized List<String> names() { return new ArrayList<>(loaded.keySet()); }

    /**
     * open_port({spawn, Command}, _) when Command's first word names a loaded Java driver: its port,
     * else null (the command is then an OS command).
     */
    public EPort open(ErlProcess owner, String command) {
        if (!any) return null;
        int sp = command.indexOf(' ');
        String name = sp < 0 ? command : command.substring(0, sp);
        Loaded l = get(name);
        if (l == null) return null;
        EPort port = KNOWN.get(name).start(owner, command);
        Ports.Port pt = vm.ports.get(port);
        if (pt != null) l.ports.add(pt);
        return port;
    }
}
