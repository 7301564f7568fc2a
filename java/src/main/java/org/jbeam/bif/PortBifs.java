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
        t.bif1(E, "port_info", (p, port) -> p.vm.ports.get(port) == null ? EAtom.UNDEFINED : ENil.NIL);
        t.bif2(E, "port_info", (p, port, item) -> {
            Ports.Port pt = p.vm.ports.get(port);
            if (pt == null) return EAtom.UNDEFINED;
            if (item == EAtom.of("connected")) return ETuple.of(item, pt.owner);
            if (item == EAtom.of("name")) return ETuple.of(item, IoLists.stringToCharlist(pt.driverName));
            if (item == EAtom.of("id")) return ETuple.of(item, ESmall.of(pt.id.id));
            return EAtom.UNDEFINED;
        });
        t.bif0(E, "ports", p -> {
            java.util.List<Term> l = new java.util.ArrayList<>();
            for (Ports.Port pt : p.vm.ports.all()) l.add(pt.id);
            return ECons.of(l);
        });
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
        if (os == null) throw ErlangException.badarg();
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
            EPort port = drv == null ? null : org.jbeam.inet.InetDrivers.open(p, drv);
            if (port != null) return port;
        }
        if (name instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.of("spawn_executable")) {
            String prog = IoLists.charlistToString(t.get(1));
            EPort port = prog == null ? null : org.jbeam.inet.InetDrivers.openProgram(p, prog);
            if (port != null) return port;
        }
        // Other spawn/spawn_executable ports are not emulated yet.
        throw ErlangException.badarg();
    }
}
