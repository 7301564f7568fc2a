package org.jbeam.dist;

import org.jbeam.bif.BifTable;
import org.jbeam.bif.IoLists;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erts' interface for process-based distribution controllers ({@code erlang:dist_ctrl_*}): what
 * OTP's TLS distribution ({@code tls_sender}, {@code ssl_gen_statem}) and {@code gen_tcp_dist} call
 * once {@code erlang:setnode/3} made their process the controller. Errors as erts raises them:
 * {@code notsup} when the caller controls no connection (or, for put_data, is not the connection's
 * input handler, e.g. after the connection went down), {@code badarg} for a handle that is not the
 * caller's connection or a bad argument. See ADR 0058.
 */
final class DistCtrlBifs {
    private DistCtrlBifs() {}

    private static final String E = "erlang";

    static void register(BifTable t) {
        t.bif2(E, "dist_ctrl_input_handler", (p, h, pid) -> {
            DistConnection c = p.vm.dist.byHandle(h);
            if (c == null) throw isHandle(h) ? ErlangException.badarg() : notsup();
            // Only the controller may name the input handler (erts also lets anyone do it for a port).
            if (c.carrier() instanceof ProcessCarrier pc && !pc.controller.equals(p.pid)) throw ErlangException.badarg();
            if (!(pid instanceof EPid in) || in.node != p.vm.nodeName) throw ErlangException.badarg();
            c.inputHandler = in;
            return EAtom.OK;
        });
        t.bif2(E, "dist_ctrl_put_data", (p, h, data) -> {
            EBitString bin = switch (data) {
                case EBitString b when b.extraBits() == 0 -> b;
                case ECons l -> EBitString.of(IoLists.toBytes(l, true));
                case ENil n -> EBitString.EMPTY;
                default -> throw ErlangException.badarg();
            };
            DistConnection c = p.vm.dist.byHandle(h);
            // A handle of a connection that went down: its input handler is gone, as in erts.
            if (c == null) throw isHandle(h) ? notsup() : ErlangException.badarg();
            if (!p.pid.equals(c.inputHandler)) throw notsup();
            if (c.carrier() instanceof ProcessCarrier pc) pc.putData(bin);
            else if (bin.byteSize() > 0) c.packet(bin.array(), bin.arrayOffset(), bin.byteSize(), true);
            return EAtom.OK;
        });
        t.bif1(E, "dist_ctrl_get_data", (p, h) -> controlled(p, h).getData());
        t.bif1(E, "dist_ctrl_get_data_notification", (p, h) -> {
            controlled(p, h).requestNotification();
            return EAtom.OK;
        });
        t.bif3(E, "dist_ctrl_set_opt", (p, h, opt, v) -> {
            ProcessCarrier pc = controlled(p, h);
            if (opt != ProcessCarrier.GET_SIZE || (v != EAtom.TRUE && v != EAtom.FALSE)) throw ErlangException.badarg();
            boolean old = pc.getSize;
            pc.getSize = v == EAtom.TRUE;
            return EAtom.of(old);
        });
        t.bif2(E, "dist_ctrl_get_opt", (p, h, opt) -> {
            ProcessCarrier pc = controlled(p, h);
            if (opt != ProcessCarrier.GET_SIZE) throw ErlangException.badarg();
            return EAtom.of(pc.getSize);
        });
    }

    /** The caller's connection, which {@code h} must name: notsup if it controls none, else badarg. */
    private static ProcessCarrier controlled(ErlProcess p, Term h) {
        ProcessCarrier pc = p.vm.dist.controlledBy(p.pid);
        if (pc == null) throw notsup();
        DistConnection c = pc.conn;
        if (c == null || !c.connId().equals(h)) throw ErlangException.badarg();
        return pc;
    }

    /** A term of the shape of this runtime's dist handles ({@code {Number, Ref}}). */
    private static boolean isHandle(Term h) {
        return h instanceof ETuple t && t.arity() == 2 && t.get(0) instanceof EInteger && t.get(1) instanceof ERef;
    }

    private static ErlangException notsup() { return ErlangException.error(ProcessCarrier.NOTSUP); }
}
