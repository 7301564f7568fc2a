package org.jbeam.inet;

import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * OTP's native name resolver port program ({@code inet_gethost}, which inet_gethost_native opens with
 * {@code open_port({spawn_executable, ".../inet_gethost"}, [{packet, 4}, binary, eof])}) done in Java:
 * the same request/reply protocol, answered with the JDK's resolver (getaddrinfo underneath) on a
 * virtual thread per request, so a slow lookup never blocks a scheduler.
 */
final class GethostPort implements Ports.Driver {
    private static final int OP_GETHOSTBYNAME = 1, OP_GETHOSTBYADDR = 2, PROTO_IPV4 = 1, UNIT_ERROR = 0;

    private final Runtime vm;
    private final Ports.Port port;

    GethostPort(Runtime vm, Ports.Port port) { this.vm = vm; this.port = port; }

    @Override public Term control(ErlProcess caller, int op, byte[] data) { throw org.jbeam.runtime.ErlangException.badarg(); }

    @Override
    public void output(ErlProcess caller, byte[] d) {
        if (d.length < 6) return;
        int op = d[4];
        if (op != OP_GETHOSTBYNAME && op != OP_GETHOSTBYADDR) return; // cancel and control need no answer
        Thread.ofVirtual().start(() -> {
            byte[] reply = answer(op, d[5] == PROTO_IPV4, d);
            if (port.isClosed()) return;
            byte[] msg = new byte[4 + reply.length];
            System.arraycopy(d, 0, msg, 0, 4); // the request id
            System.arraycopy(reply, 0, msg, 4, reply.length);
            vm.sendTo(port.owner, ETuple.of(port.id, ETuple.of(EAtom.of("data"), EBitString.of(msg))));
        });
    }

    private static byte[] answer(int op, boolean v4, byte[] d) {
        try {
            if (op == OP_GETHOSTBYNAME) {
                int end = 6;
                while (end < d.length && d[end] != 0) end++;
                String name = new String(d, 6, end - 6, StandardCharsets.UTF_8);
                return hostent(v4, name, InetAddress.getAllByName(name));
            }
            byte[] raw = java.util.Arrays.copyOfRange(d, 6, d.length);
            InetAddress a = InetAddress.getByAddress(raw);
            String name = a.getCanonicalHostName();
            if (name.equals(a.getHostAddress())) return error("notfound");
            return hostent(v4, name, new InetAddress[] {a});
        } catch (UnknownHostException e) {
            return error("notfound");
        }
    }

    private static byte[] hostent(boolean v4, String name, InetAddress[] all) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.util.List<byte[]> addrs = new java.util.ArrayList<>();
        for (InetAddress a : all) if (v4 ? a instanceof Inet4Address : a instanceof Inet6Address) addrs.add(a.getAddress());
        if (addrs.isEmpty()) return error("notfound");
        out.write(v4 ? 4 : 16);
        int32(out, addrs.size());
        for (byte[] a : addrs) out.writeBytes(a);
        int32(out, 1);
        out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        return out.toByteArray();
    }

    private static byte[] error(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        byte[] r = new byte[b.length + 1];
        r[0] = UNIT_ERROR;
        System.arraycopy(b, 0, r, 1, b.length);
        return r;
    }

    private static void int32(ByteArrayOutputStream o, int v) { o.write(v >>> 24); o.write(v >>> 16); o.write(v >>> 8); o.write(v); }

    @Override public void stop() { }
}
