package org.jbeam.tracedrv;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Ports;
import org.jbeam.term.*;

/**
 * runtime_tools' trace_ip_drv in Java: the port dbg:trace_port(ip, ...) opens as a tracer. It
 * listens on a TCP port and sends each trace message to the one connected client framed as
 * trace_ip_drv.c does, {@code <<0, Size:32, Term/binary>>}; dbg:trace_client(ip, ...) connects.
 *
 * <p>The command is {@code "trace_ip_drv Portno Quesize Flags"} (Portno 0: any free port,
 * port_control(Port, $p, "") answers {@code <<0, Portno:16>>}). Messages not yet written wait in a
 * queue of Quesize; one more arriving when it is full becomes a drop record
 * {@code <<1, Dropped:32>>} counting those lost, as in the C driver. Flag 2 fills the queue while no
 * client is connected (dbg sets it); without it messages are dropped until one is. A client that
 * closes its end is dropped, and the next connection takes over; a second connection while one is
 * served is accepted and closed.
 */
public final class TraceIpDriver implements Ports.Driver {
    private static final int FLAG_FILL_ALWAYS = 2;
    /** Listening TCP ports of open drivers: a second driver on the same one cannot start. */
    private static final Set<Integer> LISTENING = ConcurrentHashMap.newKeySet();

    private final ServerSocket listen;
    private final int portno, quesize, flags;
    /** Framed messages waiting for the client; guarded by this. A drop record is an int[1] count. */
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private Socket client;
    private boolean closed;
    private long sent;

    private TraceIpDriver(ServerSocket listen, int portno, int quesize, int flags) {
        this.listen = listen; this.portno = portno; this.quesize = quesize; this.flags = flags;
    }

    /** open_port({spawn, Command}, _) once the driver is loaded. */
    public static EPort start(ErlProcess owner, String command) {
        String[] f = command.trim().split(" +");
        int portno, quesize, flags;
        try {
            if (f.length < 4) throw new NumberFormatException();
            portno = Integer.parseInt(f[1]); quesize = Integer.parseInt(f[2]); flags = Integer.parseInt(f[3]);
        } catch (NumberFormatException e) {
            throw einval();
        }
        if (flags > 3 || flags < 0 || portno < 0 || quesize < 0 || LISTENING.contains(portno)) throw einval();
        ServerSocket ss;
        try {
            ss = new ServerSocket();
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(portno), 1);
        } catch (IOException e) {
            throw einval();
        }
        int bound = ss.getLocalPort();
        if (!LISTENING.add(bound)) { closeQuietly(ss); throw einval(); }
        TraceIpDriver d = new TraceIpDriver(ss, bound, quesize, flags);
        EPort id = owner.vm.ports.openDriver(owner.pid, command, port -> d);
        Thread.ofPlatform().daemon(true).name("jbeam-trace-ip-accept").start(d::acceptLoop);
        Thread.ofPlatform().daemon(true).name("jbeam-trace-ip-writer").start(d::writeLoop);
        return id;
    }

    /** ERL_DRV_ERROR_GENERAL: open_port raises einval. */
    private static ErlangException einval() { return ErlangException.error(EAtom.of("einval")); }

    private void acceptLoop() {
        while (true) {
            Socket s;
            try {
                s = listen.accept();
            } catch (IOException e) {
                return; // closed
            }
            synchronized (this) {
                if (closed || client != null) { closeQuietly(s); continue; }
                client = s;
                notifyAll();
            }
            Thread.ofPlatform().daemon(true).name("jbeam-trace-ip-eof").start(() -> watchEof(s));
        }
    }

    /** The client closing its end (read returns EOF) ends the connection. */
    private void watchEof(Socket s) {
        try (InputStream in = s.getInputStream()) {
            byte[] b = new byte[128];
            while (in.read(b) >= 0) { /* anything else is ignored, as by the C driver */ }
        } catch (IOException e) {
            // reset: the same as EOF
        }
        dropClient(s);
    }

    private synchronized void dropClient(Socket s) {
        if (client != s) return;
        closeQuietly(s);
        client = null;
        if ((flags & FLAG_FILL_ALWAYS) == 0) queue.clear();
    }

    private void writeLoop() {
        while (true) {
            Socket s;
            byte[] frame;
            synchronized (this) {
                while (!closed && (client == null || queue.isEmpty())) {
                    try { wait(); } catch (InterruptedException e) { return; }
                }
                if (closed) return;
                s = client;
                Object o = queue.pollFirst();
                frame = o instanceof byte[] b ? b : dropRecord(((int[]) o)[0]);
            }
            try {
                OutputStream out = s.getOutputStream();
                out.write(frame);
                out.flush();
                synchronized (this) { sent += frame.length; }
            } catch (IOException e) {
                dropClient(s);
            }
        }
    }

    private static byte[] dropRecord(int n) {
        return new byte[] {1, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    @Override
    public synchronized void output(ErlProcess caller, byte[] data) {
        if (closed || client == null && (flags & FLAG_FILL_ALWAYS) == 0) return;
        if (queue.size() > quesize) {
            ((int[]) queue.peekLast())[0]++; // full: the drop record counts one more
        } else if (queue.size() == quesize) {
            queue.addLast(new int[] {1});
        } else {
            int n = data.length;
            byte[] frame = new byte[5 + n];
            frame[1] = (byte) (n >>> 24); frame[2] = (byte) (n >>> 16); frame[3] = (byte) (n >>> 8); frame[4] = (byte) n;
            System.arraycopy(data, 0, frame, 5, n);
            queue.addLast(frame);
        }
        notifyAll();
    }

    /** A spawn-started driver port: port_close also tells the linked owner (exit reason normal), as erts does. */
    @Override public boolean linkedOwnerOnClose() { return true; }

    @Override
    public Term control(ErlProcess caller, int op, byte[] data) {
        if (op != 'p') throw ErlangException.badarg();
        // The driver sets PORT_CONTROL_FLAG_BINARY: the answer is a binary.
        return EBitString.of(new byte[] {0, (byte) (portno >>> 8), (byte) portno});
    }

    @Override
    public void stop() {
        Socket s;
        synchronized (this) {
            if (closed) return;
            closed = true;
            s = client;
            client = null;
            queue.clear();
            notifyAll();
        }
        closeQuietly(listen);
        if (s != null) closeQuietly(s);
        LISTENING.remove(portno);
    }

    @Override public synchronized long bytesOut() { return sent; }

    private static void closeQuietly(java.io.Closeable c) {
        try { c.close(); } catch (IOException e) { /* closing */ }
    }
}
