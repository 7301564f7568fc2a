package org.jbeam.runtime;

import org.jbeam.term.*;

/** Messages sent to a port ({@code Port ! {Pid, {command, Data}}}, {@code {Pid, close}}, {@code {Pid, {connect, NewPid}}}). */
final class PortMessages {
    private PortMessages() {}

    private static final EAtom COMMAND = EAtom.of("command"), CLOSE = EAtom.of("close"), CONNECT = EAtom.of("connect"),
            CLOSED = EAtom.of("closed"), CONNECTED = EAtom.of("connected");

    static void handle(Runtime vm, ErlProcess from, EPort portId, Term msg) {
        Ports.Port port = vm.ports.get(portId);
        if (port == null) return; // sending to a closed port is a no-op
        if (!(msg instanceof ETuple t) || t.arity() != 2 || !(t.get(0) instanceof EPid sender)) return;
        Term cmd = t.get(1);
        if (cmd instanceof ETuple c && c.arity() == 2 && c.get(0) == COMMAND) {
            if (port.driver != null) port.driver.output(from, IoData.toBytes(c.get(1)));
            else vm.ports.command(port, IoData.toBytes(c.get(1)));
        } else if (cmd == CLOSE) {
            vm.ports.close(port);
            vm.sendTo(sender, ETuple.of(portId, CLOSED));
        } else if (cmd instanceof ETuple c && c.arity() == 2 && c.get(0) == CONNECT && c.get(1) instanceof EPid np) {
            vm.ports.setOwner(port, np);
            vm.sendTo(sender, ETuple.of(portId, CONNECTED));
        }
    }
}
