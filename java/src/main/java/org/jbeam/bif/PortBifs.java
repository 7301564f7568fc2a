package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.IoData;
import org.jbeam.runtime.Ports;
import org.jbeam.term.*;

/** open_port/2 (fd ports for now), port_command/2,3, port_close/1, port_control/3, port_connect/2, port_info/1,2, ports/0. */
public final class PortBifs implements BifModule {
    private static final String E = "erlang";
    private static final EAtom FD = EAtom.of("fd"), BINARY = EAtom.of("binary"), EOF = EAtom.of("eof"), OUT = EAtom.of("out"),
            IN = EAtom.of("in"), SPAWN_DRIVER = EAtom.of("spawn_driver"), SPAWN = EAtom.of("spawn");

    @Override
    public void register(BifTable t) {
        t.bif2(E, "open_port", PortBifs::openPort);
        t.bif2(E, "port_command", (p, port, data) -> command(p, port, data));
        t.bif3(E, "port_command", (p, port, data, o) -> command(p, port, data));
        t.bif1(E, "port_close", (p, port) -> {
            Ports.Port pt = p.vm.ports.get(port);
            if (pt == null) throw ErlangException.badarg();
            p.vm.ports.close(pt);
            return EAtom.TRUE;
        });
        t.bif3(E, "port_control", (p, port, op, data) -> {
            Ports.Port pt = p.vm.ports.get(port);
            if (pt == null || pt.driver == null || !(op instanceof ESmall o)) throw ErlangException.badarg();
            return pt.driver.control(p, (int) o.value, IoData.toBytes(data));
        });
        t.bif2(E, "port_connect", (p, port, pid) -> {
            Ports.Port pt = p.vm.ports.get(port);
            if (pt == null || !(pid instanceof EPid np)) throw ErlangException.badarg();
            p.vm.ports.setOwner(pt, np);
            return EAtom.TRUE;
        });
        t.bif1(E, "port_info", (p, port) -> {
            Ports.Port pt = port(p, port);
            if (pt == null) return EAtom.UNDEFINED;
            java.util.List<Term> l = new java.util.ArrayList<>();
            for (String k : new String[] {"name", "links", "id", "connected", "input", "output", "os_pid"}) {
                Term v = info(pt, EAtom.of(k));
                if (v != EAtom.UNDEFINED) l.add(v);
            }
            return ECons.of(l);
        });
        t.bif2(E, "port_info", (p, port, item) -> {
            Ports.Port pt = port(p, port);
            if (!(item instanceof EAtom)) throw ErlangException.badarg();
            return pt == null ? EAtom.UNDEFINED : info(pt, item);
        });
        t.bif0(E, "ports", p -> {
            java.util.List<Term> l = new java.util.ArrayList<>();
            for (Ports.Port pt : p.vm.ports.all()) l.add(pt.id);
            return ECons.of(l);
        });
    }

    /** A port or a registered port name; badarg for anything else, null if it is not open. */
    private static Ports.Port port(ErlProcess p, Term t) {
        if (t instanceof EAtom a) t = p.vm.registry.whereis(a);
        else if (!(t instanceof EPort)) throw ErlangException.badarg();
        return p.vm.ports.get(t);
    }

    private static Term info(Ports.Port pt, Term item) {
        org.jbeam.spawn.SpawnPort sp = pt.driver instanceof org.jbeam.spawn.SpawnPort s ? s : null;
        Term v = switch (((EAtom) item).name) {
            case "connected" -> pt.owner;
            case "name" -> IoLists.stringToCharlist(pt.driverName);
            case "id" -> ESmall.of(pt.id.id);
            case "links" -> {
                yield ECons.of(new java.util.ArrayList<Term>(pt.links));
            }
            case "input" -> ESmall.of(pt.driver == null ? 0 : pt.driver.bytesIn());
            case "output" -> ESmall.of(pt.driver == null ? 0 : pt.driver.bytesOut());
            case "os_pid" -> sp == null ? null : ESmall.of(sp.osPid());
            case "registered_name" -> pt.name;
            case "monitored_by" -> {
                java.util.List<Term> ms = new java.util.ArrayList<>();
                for (org.jbeam.runtime.ErlProcess.Monitor m : pt.monitors.values()) ms.add(m.watcher());
                yield ECons.of(ms);
            }
            default -> throw ErlangException.badarg();
        };
        return v == null ? EAtom.UNDEFINED : ETuple.of(item, v);
    }

    private static Term command(ErlProcess p, Term port, Term data) {
        Ports.Port pt = p.vm.ports.get(port);
        if (pt == null) throw ErlangException.badarg();
        byte[] bytes = IoData.toBytes(data);
        if (pt.driver != null) pt.driver.output(p, bytes);
        else p.vm.ports.command(pt, bytes);
        return EAtom.TRUE;
    }

    private static Term openPort(ErlProcess p, Term name, Term opts) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.ertsBadarg("badopt");
        boolean binary = false, eof = false, outOnly = false;
        for (Term o : os) {
            if (o == BINARY) binary = true;
            else if (o == EOF) eof = true;
            else if (o == OUT) outOnly = true;
        }
        if (name instanceof ETuple t && t.arity() == 3 && t.get(0) == FD && t.get(1) instanceof ESmall in && t.get(2) instanceof ESmall out)
            return p.vm.ports.openFd(p, (int) in.value, (int) out.value, binary, eof, !outOnly);
        if (name instanceof ETuple t && t.arity() == 2 && (t.get(0) == SPAWN_DRIVER || t.get(0) == SPAWN)) {
            String drv = IoLists.charlistToString(t.get(1));
            // erts' terminal driver (user_drv opens "tty_sl -c -e" for the line-editing shell): like
            // erts' its start fails without a terminal, and user_drv falls back to OTP's plain user.
            String cmdName = t.get(1) instanceof EAtom an ? an.name : drv;
            if (cmdName != null && (cmdName.equals("tty_sl") || cmdName.startsWith("tty_sl "))) {
                EPort tty = org.jbeam.tty.TtyDriver.open(p, cmdName);
                if (tty == null) throw ErlangException.badarg();
                return tty;
            }
            EPort port = drv == null ? null
                    : drv.equals("ram_file_drv") ? org.jbeam.file.RamFileDriver.open(p, binary)
                    : org.jbeam.inet.InetDrivers.open(p, drv);
            if (port == null && drv != null) port = p.vm.drivers.open(p, drv); // a loaded driver (erl_ddll)
            if (port != null) return port;
            if (t.get(0) == SPAWN) {
                // An atom names the command too ({spawn, foo} runs foo), as in erts.
                String cmd = t.get(1) instanceof EAtom a ? a.name : drv;
                if (cmd == null) throw ErlangException.badarg();
                return org.jbeam.spawn.SpawnPort.openSpawn(p, cmd, opts);
            }
        }
        if (name instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.of("spawn_executable")) {
            String prog = IoLists.charlistToString(t.get(1));
            EPort port = prog == null ? null : org.jbeam.inet.InetDrivers.openProgram(p, prog);
            if (port != null) return port;
            if (t.get(1) instanceof EBitString b && b.isBinary())
                prog = new String(b.toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
            if (prog == null) throw ErlangException.badarg();
            return org.jbeam.spawn.SpawnPort.openExecutable(p, prog, opts);
        }
        // The old form: an atom names a command, as {spawn, Atom}.
        if (name instanceof EAtom a && a != EAtom.UNDEFINED) return org.jbeam.spawn.SpawnPort.openSpawn(p, a.name, opts);
        throw ErlangException.badarg();
    }
}
