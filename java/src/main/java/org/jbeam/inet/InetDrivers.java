package org.jbeam.inet;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.EPort;

/** open_port({spawn_driver, Name}, _) for the inet drivers erts links in: "tcp_inet" and "udp_inet". */
public final class InetDrivers {
    private InetDrivers() {}

    /** Opens the named driver's port owned by {@code p}, or null if there is no such driver. */
    public static EPort open(ErlProcess p, String name) {
        return switch (name) {
            case "tcp_inet" -> p.vm.ports.openDriver(p.pid, name, port -> new TcpInet(p.vm, port));
            case "udp_inet" -> p.vm.ports.openDriver(p.pid, name, port -> new UdpInet(p.vm, port));
            default -> null;
        };
    }

    /** "io_uring" or "nio": where tcp sockets get readiness from (ADR 0016). */
    public static String socketBackend() { return SockPoll.backendName(); }

    /**
     * erlang:system_info({jbeam, socket_receives}): {@code nio}, or how the io_uring ring receives for
     * connected sockets (ADR 0062): {@code #{mode => multishot | oneshot, buffers, buffer_size,
     * completions, no_buffer}} (no_buffer: multishot receives ended by ENOBUFS and re-armed).
     */
    public static org.jbeam.term.Term socketReceives() {
        org.jbeam.io.PollRing r = socketRing();
        if (r == null) return org.jbeam.term.EAtom.of("nio");
        org.jbeam.io.PollRing.ReceiveStats s = r.receiveStats();
        org.jbeam.term.Term[] ks = {org.jbeam.term.EAtom.of("mode"), org.jbeam.term.EAtom.of("buffers"),
                org.jbeam.term.EAtom.of("buffer_size"), org.jbeam.term.EAtom.of("completions"), org.jbeam.term.EAtom.of("no_buffer")};
        org.jbeam.term.Term[] vs = {org.jbeam.term.EAtom.of(s.multishot() ? "multishot" : "oneshot"), org.jbeam.term.ESmall.of(s.buffers()),
                org.jbeam.term.ESmall.of(s.bufferSize()), org.jbeam.term.EInteger.of(s.completions()), org.jbeam.term.EInteger.of(s.noBuffer())};
        return org.jbeam.term.EMap.of(ks, vs);
    }

    /**
     * The io_uring socket ring the tcp/udp drivers poll on, or null when they use the NIO selector
     * (the socket NIF, org.jbeam.socket, shares it: one ring thread for all sockets).
     */
    public static org.jbeam.io.PollRing socketRing() { return SockPoll.uringOrNull(); }

    /** open_port({spawn_executable, ".../inet_gethost"}, _): OTP's resolver port program, emulated. */
    public static EPort openProgram(ErlProcess p, String program) {
        if (!program.endsWith("/inet_gethost")) return null;
        return p.vm.ports.openDriver(p.pid, program, port -> new GethostPort(p.vm, port));
    }
}
