package org.jbeam.spawn;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * An external program behind a port (erts' spawn driver). The child is started with ProcessBuilder
 * (ADR 0020). Its stdout is read by one platform thread per port that frames the bytes (stream, line,
 * packet) and sends {@code {Port, {data, D}}} to the owner; a second thread writes port_command data to
 * its stdin in order, so neither a slow reader nor a full pipe ever blocks a scheduler. Closing the port
 * closes the child's stdin (after queued output, like erts' flush) and stops delivery; the reader then
 * closes stdout on its next wake-up, so a child still writing gets SIGPIPE as with erts.
 */
public final class SpawnPort implements Ports.Driver {
    private static final EAtom DATA = EAtom.of("data"), EOL = EAtom.of("eol"), NOEOL = EAtom.of("noeol"),
            EOF = EAtom.of("eof"), EXIT_STATUS = EAtom.of("exit_status"), EBADF = EAtom.of("ebadf");
    private static final byte[] CLOSE = new byte[0];

    private final Runtime vm;
    private final Ports.Port port;
    private final SpawnOptions o;
    private final Process proc; // null: exec failed in the "child" (errno becomes its exit status, as erts reports it)
    private final int failedStatus;
    private volatile boolean broken; // the child's stdin is gone: output is dropped
    private final LinkedBlockingQueue<byte[]> toChild = new LinkedBlockingQueue<>();
    /** port_info input/output: bytes read from / written to the child. */
    final AtomicLong input = new AtomicLong(), output = new AtomicLong();

    private SpawnPort(Runtime vm, Ports.Port port, SpawnOptions o, Process proc, int failedStatus) {
        this.vm = vm; this.port = port; this.o = o; this.proc = proc; this.failedStatus = failedStatus;
    }

    /** open_port({spawn, Cmd}, Opts): erts runs {@code /bin/sh -c "exec Cmd"}. */
    public static EPort openSpawn(ErlProcess p, String cmd, Term opts) {
        SpawnOptions o = SpawnOptions.parse(opts);
        if (cmd.isEmpty() || o.args != null || o.arg0 != null) throw ErlangException.badarg();
        return open(p, cmd, List.of("/bin/sh", "-c", "exec " + cmd), o);
    }

    /** open_port({spawn_executable, File}, Opts): File is exec'ed with {args, L}; no PATH search. */
    public static EPort openExecutable(ErlProcess p, String file, Term opts) {
        SpawnOptions o = SpawnOptions.parse(opts);
        File f = new File(file);
        if (!f.isAbsolute() && o.cd != null) f = new File(o.cd, file); // erts resolves it in the child, after the cd
        if (!f.exists()) throw ErlangException.error(EAtom.of("enoent"));
        List<String> argv = new ArrayList<>();
        argv.add(f.getPath());
        if (o.args != null) argv.addAll(o.args);
        return open(p, file, argv, o);
    }

    private static EPort open(ErlProcess p, String name, List<String> argv, SpawnOptions o) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        var env = pb.environment();
        env.clear();
        env.putAll(org.jbeam.bif.OsBifs.environment());
        o.env.forEach((k, v) -> { if (v == null) env.remove(k); else env.put(k, v); });
        if (o.cd != null) pb.directory(new File(o.cd));
        pb.redirectInput(o.out ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT);
        pb.redirectOutput(o.in ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT);
        if (o.stderrToStdout) pb.redirectErrorStream(true);
        else pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process proc = null;
        int failed = 0;
        try {
            File exe = new File(argv.get(0));
            // Java would run a file without the exec format as a shell script (ENOEXEC fallback); erts reports
            // the errno as the exit status. A directory or non-executable file is EACCES (13).
            if (exe.isAbsolute() && (exe.isDirectory() || !exe.canExecute())) failed = 13;
            else if (o.cd != null && !new File(o.cd).isDirectory()) failed = 2; // erts: "Could not cd", status ENOENT
            else proc = pb.start();
        } catch (IOException e) {
            failed = errno(e.getMessage());
        }
        Process started = proc;
        int status = failed;
        return started(p.vm.ports.openDriver(p.pid, name, port -> new SpawnPort(p.vm, port, o, started, status)));
    }

    private static int errno(String msg) {
        int i = msg == null ? -1 : msg.indexOf("error=");
        if (i < 0) return 2;
        int j = i + 6;
        while (j < msg.length() && Character.isDigit(msg.charAt(j))) j++;
        return j > i + 6 ? Integer.parseInt(msg.substring(i + 6, j)) : 2;
    }

    /** Starts the threads once the port exists (messages name it). */
    void start() {
        if (proc == null) {
            Thread.ofPlatform().daemon(true).name("jbeam-spawn-exit").start(() -> finish(failedStatus));
            return;
        }
        if (o.out) Thread.ofPlatform().daemon(true).name("jbeam-spawn-writer").start(this::writeLoop);
        if (o.in) Thread.ofPlatform().daemon(true).name("jbeam-spawn-reader").start(this::readLoop);
        else proc.onExit().thenAccept(pr -> finish(pr.exitValue()));
    }

    public long osPid() { return proc == null ? -1 : proc.pid(); }
    @Override public long bytesIn() { return input.get(); }
    @Override public long bytesOut() { return output.get(); }

    @Override public Term control(ErlProcess caller, int op, byte[] data) { throw ErlangException.badarg(); }

    @Override
    public void output(ErlProcess caller, byte[] data) {
        if (!o.out) {
            // erts accepts the command, then the port dies writing to a descriptor it does not have.
            vm.ports.exit(port, EBADF);
            return;
        }
        if (o.framing == SpawnOptions.Framing.PACKET) {
            int n = o.size, len = data.length;
            if (n < 4 && len >= 1 << (8 * n)) throw ErlangException.badarg();
            byte[] framed = new byte[n + len];
            for (int i = 0; i < n; i++) framed[i] = (byte) (len >>> (8 * (n - 1 - i)));
            System.arraycopy(data, 0, framed, n, len);
            data = framed;
        }
        output.addAndGet(data.length);
        if (data.length > 0 && !broken) toChild.add(data);
    }

    @Override public void stop() { toChild.add(CLOSE); }

    @Override public boolean linkedOwnerOnClose() { return true; }

    private void writeLoop() {
        OutputStream os = proc.getOutputStream();
        try (os) {
            for (byte[] b; (b = toChild.take()) != CLOSE; ) {
                os.write(b);
                os.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the child closed its stdin (or exited): later output is dropped, as a broken pipe in erts
            broken = true;
            toChild.clear();
        }
    }

    private void readLoop() {
        InputStream is = proc.getInputStream();
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        try (is) {
            int n;
            while (!port.isClosed() && (n = is.read(buf)) >= 0) {
                if (n == 0 || port.isClosed()) continue;
                input.addAndGet(n);
                if (o.framing == SpawnOptions.Framing.STREAM) send(payload(buf, 0, n));
                else {
                    pending.write(buf, 0, n);
                    frame(pending);
                }
            }
        } catch (IOException e) {
            // stdout closed under us: treated as end of file
        }
        if (port.isClosed()) return;
        if (o.framing == SpawnOptions.Framing.LINE && pending.size() > 0) {
            byte[] rest = pending.toByteArray();
            send(ETuple.of(NOEOL, payload(rest, 0, rest.length)));
        }
        if (o.eof) {
            // erts reports the exit status first, then eof; the port stays open until closed.
            // Both or neither: a port_close between the two must not drop eof after the status went out.
            int st = o.exitStatus ? waitExit() : -1;
            synchronized (port) {
                if (port.isClosed()) return;
                if (st >= 0) vm.sendTo(port.owner, ETuple.of(port.id, ETuple.of(EXIT_STATUS, ESmall.of(st))));
                vm.sendTo(port.owner, ETuple.of(port.id, EOF));
            }
            return;
        }
        finish(o.exitStatus ? waitExit() : -1);
    }

    private int waitExit() {
        try {
            return proc.waitFor();
        } catch (InterruptedException e) {
            return -1;
        }
    }

    /**
     * End of the child's output: the exit status if asked for, then the port exits with normal.
     * Unlike an inet port's driver_exit (Ports.driverExit, no signal), erts' spawn driver ends
     * with driver_failure_eof and a trapping owner does get {'EXIT', Port, normal}: both checked
     * against erl (port_spawn, inet_exit_on_close).
     */
    private void finish(int st) {
        if (o.exitStatus && st >= 0) status(st);
        vm.ports.exit(port, org.jbeam.term.EAtom.NORMAL);
    }

    private void status(int st) { deliver(ETuple.of(port.id, ETuple.of(EXIT_STATUS, ESmall.of(st)))); }

    /** Sends every complete line / packet in {@code pending}, keeping the rest. */
    private void frame(ByteArrayOutputStream pending) {
        byte[] b = pending.toByteArray();
        int pos = 0, n = o.size;
        while (true) {
            if (o.framing == SpawnOptions.Framing.LINE) {
                int nl = -1;
                for (int i = pos; i < b.length && i <= pos + n; i++) if (b[i] == '\n') { nl = i; break; }
                if (nl >= 0) { send(ETuple.of(EOL, payload(b, pos, nl - pos))); pos = nl + 1; }
                else if (b.length - pos > n) { send(ETuple.of(NOEOL, payload(b, pos, n))); pos += n; }
                else break;
            } else {
                if (b.length - pos < n) break;
                long len = 0;
                for (int i = 0; i < n; i++) len = len << 8 | (b[pos + i] & 0xFF);
                if (b.length - pos - n < len) break;
                send(payload(b, pos + n, (int) len));
                pos += n + (int) len;
            }
        }
        pending.reset();
        pending.write(b, pos, b.length - pos);
    }

    private Term payload(byte[] b, int off, int len) {
        if (o.binary) return EBitString.of(java.util.Arrays.copyOfRange(b, off, off + len));
        EList l = ENil.NIL;
        for (int i = off + len - 1; i >= off; i--) l = new ECons(ESmall.of(b[i] & 0xFF), l);
        return l;
    }

    private void send(Term d) { deliver(ETuple.of(port.id, ETuple.of(DATA, d))); }

    /**
     * Sends unless the port is closed, holding the lock Ports takes to mark it closed: once port_close
     * has returned (or the owner got 'EXIT'), nothing more from this port reaches the owner, as in erts.
     */
    private void deliver(Term msg) {
        synchronized (port) {
            if (!port.isClosed()) vm.sendTo(port.owner, msg);
        }
    }

    /** Called by open: the port's driver is in place, so the threads can name it. */
    static EPort started(EPort id) {
        if (id.port instanceof Ports.Port pt && pt.driver instanceof SpawnPort sp) sp.start();
        return id;
    }
}
