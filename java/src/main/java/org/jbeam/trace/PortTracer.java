package org.jbeam.trace;

import org.jbeam.etf.TermEncoder;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Ports;
import org.jbeam.term.EPort;
import org.jbeam.term.Term;

/**
 * A port as tracer ({@code {tracer, Port}}): each trace message goes to the port as a port command
 * holding the message in the external format (term_to_binary), which is what erts' erl_tracer does
 * with a port tracer; trace_file_drv and trace_ip_drv frame those bytes for dbg:trace_client.
 * The tracee's thread writes, so the drivers serialise their output.
 */
final class PortTracer {
    private PortTracer() {}

    /** Sends {@code message} to {@code port}; false when the port is gone (the tracing then ends). */
    static boolean output(ErlProcess p, EPort port, Term message) {
        Ports.Port pt = p.vm.ports.get(port);
        if (pt == null) return false;
        byte[] bytes = TermEncoder.encode(message);
        try {
            if (pt.driver != null) pt.driver.output(p, bytes);
            else p.vm.ports.command(pt, bytes);
        } catch (ErlangException e) {
            return false; // closed under us
        }
        return true;
    }
}
