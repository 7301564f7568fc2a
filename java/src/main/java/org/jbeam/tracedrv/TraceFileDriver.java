package org.jbeam.tracedrv;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jbeam.file.Posix;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * runtime_tools' trace_file_drv in Java: the port dbg:trace_port(file, ...) opens as a tracer. Each
 * port command (a trace message in the external format) goes to the file framed as trace_file_drv.c
 * frames it, {@code <<0, Size:32, Term/binary>>}, so dbg:trace_client reads the file back; the same
 * 64 KiB buffer, flushed by port_control(Port, $f, "") and when the port closes.
 *
 * <p>The command is {@code "trace_file_drv [w Size Cnt Time Tail ]n Filename"}. With {@code w} the
 * log wraps: the file names get a counter ("0", "1", ... up to Cnt, then "0" again) at index Tail,
 * at most Cnt files are kept, and the next file starts when this one reaches Size bytes or, with
 * Time > 0, every Time milliseconds.
 */
public final class TraceFileDriver implements Ports.Driver {
    private static final int BUFFER_SIZE = 8192 * 8; // BUFSIZ*8, as the C driver

    private final Runtime vm;
    private Ports.Port port;
    private OutputStream out;
    private final Wrap wrap;
    private ScheduledFuture<?> timer;
    private long written;

    /** A wrapping log's names and limits. */
    private static final class Wrap {
        final String head, tail;
        final long size, time;
        final int n;
        int left; // files still to create before old ones are deleted
        int cur, del;
        long len;

        Wrap(String name, int tailAt, long size, int cnt, long time) {
            head = name.substring(0, tailAt);
            tail = name.substring(tailAt);
            this.size = size; this.n = cnt; this.time = time; this.left = cnt;
        }

        String name(int k) { return head + k + tail; }

        int next(int k) { return k >= n ? 0 : k + 1; }
    }

    private TraceFileDriver(Runtime vm, OutputStream out, Wrap wrap) {
        this.vm = vm; this.out = out; this.wrap = wrap;
    }

    /** open_port({spawn, Command}, _) once the driver is loaded. */
    public static EPort start(ErlProcess owner, String command) {
        // sscanf(buff, "trace_file_drv %n w %u %u %u %u %n", ...): the name, then an optional
        // "w Size Cnt Time Tail", then "n Filename" (the rest of the line).
        String rest = command.substring("trace_file_drv".length());
        if (!rest.isEmpty() && rest.charAt(0) != ' ') throw ErlangException.badarg();
        String[] w = null;
        String s = rest.stripLeading();
        if (s.startsWith("w")) {
            String[] f = s.substring(1).stripLeading().split(" +", 5);
            if (f.length < 5) throw ErlangException.badarg();
            w = f;
            s = f[4].stripLeading();
        }
        if (!s.startsWith("n ")) throw ErlangException.badarg();
        String name = s.substring(2);
        int nul = name.indexOf('\0');
        if (nul >= 0) name = name.substring(0, nul);
        Wrap wrap = null;
        if (w != null) {
            long size, time;
            int cnt, tail;
            try {
                size = Long.parseLong(w[0]); cnt = Integer.parseInt(w[1]); time = Long.parseLong(w[2]); tail = Integer.parseInt(w[3]);
            } catch (NumberFormatException e) {
                throw ErlangException.badarg();
            }
            if (tail >= name.length() || cnt < 1) throw ErlangException.badarg();
            wrap = new Wrap(name, tail, size, cnt, time);
        } else if (name.isEmpty()) {
            throw ErlangException.badarg();
        }
        OutputStream out;
        try {
            out = open(wrap == null ? name : wrap.name(0));
        } catch (IOException e) {
            throw ErlangException.error(Posix.of(e));
        }
        TraceFileDriver d = new TraceFileDriver(owner.vm, out, wrap);
        EPort id = owner.vm.ports.openDriver(owner.pid, command, port -> d);
        d.port = owner.vm.ports.get(id);
        if (wrap != null && wrap.time > 0) d.schedule();
        return id;
    }

    private static OutputStream open(String name) throws IOException {
        return new java.io.BufferedOutputStream(Files.newOutputStream(Path.of(name), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), BUFFER_SIZE);
    }

    private void schedule() {
        timer = Timers.POOL.schedule(this::timeout, wrap.time, TimeUnit.MILLISECONDS);
    }

    private void timeout() {
        synchronized (this) {
            if (out == null) return;
            try {
                wrapFile();
            } catch (IOException e) {
                fail(e);
                return;
            }
            schedule();
        }
    }

    @Override
    public synchronized void output(ErlProcess caller, byte[] data) {
        if (out == null) return;
        int n = data.length;
        try {
            out.write(new byte[] {0, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
            out.write(data);
            written += 5 + n;
            if (wrap != null) {
                wrap.len += 5 + n;
                if (wrap.time == 0 && wrap.len >= wrap.size) wrapFile();
            }
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Closes this file, perhaps deletes the oldest, opens the next (trace_file_drv.c's wrap_file). */
    private void wrapFile() throws IOException {
        out.close();
        wrap.len = 0;
        if (wrap.left > 0) wrap.left--;
        if (wrap.left == 0) {
            Files.deleteIfExists(Path.of(wrap.name(wrap.del)));
            wrap.del = wrap.next(wrap.del);
        }
        wrap.cur = wrap.next(wrap.cur);
        out = open(wrap.name(wrap.cur));
    }

    /** driver_failure_posix: the port exits with the error. */
    private void fail(IOException e) {
        Ports.Port p = port;
        if (p != null) vm.ports.exit(p, Posix.of(e));
    }

    /** A spawn-started driver port: port_close also tells the linked owner (exit reason normal), as erts does. */
    @Override public boolean linkedOwnerOnClose() { return true; }

    @Override
    public Term control(ErlProcess caller, int op, byte[] data) {
        if (op != 'f') throw ErlangException.badarg();
        synchronized (this) {
            try {
                if (out != null) out.flush();
            } catch (IOException e) {
                fail(e);
            }
        }
        return ECons.of(ESmall.ZERO);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) timer.cancel(false);
        if (out == null) return;
        try {
            out.close();
        } catch (IOException e) {
            // as the C driver: the last flush's error goes unreported
        }
        out = null;
    }

    @Override public long bytesIn() { return 0; }

    @Override public synchronized long bytesOut() { return written; }
}
