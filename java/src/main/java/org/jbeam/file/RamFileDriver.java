package org.jbeam.file;

import java.util.Arrays;

import org.jbeam.bif.IoLists;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * erts' linked-in "ram_file_drv": the byte store behind {@code file:open(Data, [ram | _])},
 * which OTP's ram_file module drives with port_command requests and reads back as
 * {@code {Port, {data, [Code | Rest]}}} replies (erl_tar and zip use it for in-memory archives).
 * Same requests, replies and errors as ram_file_drv.c: a request it does not know gets no reply.
 * One port is used by one process at a time (ram_file's calls are synchronous), so the state is
 * guarded by the port's monitor only against a close racing a command.
 */
public final class RamFileDriver implements Ports.Driver {
    private static final int OPEN = 1, READ = 2, LSEEK = 3, WRITE = 4, FSYNC = 9, TRUNCATE = 14, PREAD = 17, PWRITE = 18,
            FDATASYNC = 19, GET = 30, SIZE = 37, ADVISE = 38, ALLOCATE = 39;
    private static final int MODE_READ = 1, MODE_WRITE = 2;
    private static final int RESP_OK = 0, RESP_ERROR = 1, RESP_DATA = 2, RESP_NUMBER = 3;
    private static final EAtom DATA = EAtom.of("data");

    private final Runtime vm;
    private final Ports.Port port;
    private final boolean binary;
    private int flags;
    private byte[] buf = new byte[0];
    private int cur, end;

    private RamFileDriver(Runtime vm, Ports.Port port, boolean binary) {
        this.vm = vm; this.port = port; this.binary = binary;
    }

    /** open_port({spawn, "ram_file_drv"}, Opts) owned by {@code p}; {@code binary} when Opts has it. */
    public static EPort open(ErlProcess p, boolean binary) {
        return p.vm.ports.openDriver(p.pid, "ram_file_drv", port -> new RamFileDriver(p.vm, port, binary));
    }

    @Override public Term control(ErlProcess caller, int op, byte[] data) { throw org.jbeam.runtime.ErlangException.badarg(); }

    @Override public void stop() {
        synchronized (this) { buf = null; }
    }

    @Override
    public synchronized void output(ErlProcess caller, byte[] d) {
        if (d.length == 0 || buf == null) return;
        int n = d.length - 1;
        switch (d[0] & 0xFF) {
            case OPEN -> {
                if (n < 4) return;
                flags = int32(d, 1);
                buf = Arrays.copyOfRange(d, 5, d.length);
                cur = 0;
                end = buf.length;
                number(0);
            }
            case FSYNC, FDATASYNC, ADVISE, ALLOCATE -> { if (flags == 0) error("ebadf"); else ok(); }
            case WRITE -> { if (write(d, 1, n, cur, true)) number(n); }
            case PWRITE -> {
                if (n < 4) return;
                int at = int32(d, 1);
                if (at < 0) error("einval");
                else if (write(d, 5, n - 4, at, false)) number(n - 4);
            }
            case LSEEK -> {
                if (n < 8) return;
                long off = int32(d, 1);
                int whence = int32(d, 5);
                if (flags == 0) { error("ebadf"); return; }
                long pos = switch (whence) {
                    case 0 -> off;
                    case 1 -> cur + off;
                    case 2 -> end + off;
                    default -> -1;
                };
                if (pos < 0 || pos > Integer.MAX_VALUE) error("einval");
                else { cur = (int) pos; number(cur); }
            }
            case PREAD -> {
                if (n < 8) return;
                int at = int32(d, 1);
                if (at < 0) error("einval");
                else read(int32(d, 5), at, false);
            }
            case READ -> { if (n >= 4) read(int32(d, 1), cur, true); }
            case TRUNCATE -> {
                if ((flags & MODE_WRITE) == 0) { error("eacces"); return; }
                if (end > cur) Arrays.fill(buf, cur, end, (byte) 0);
                end = Math.min(end, cur);
                ok();
            }
            case GET -> data(Arrays.copyOf(buf, end));
            case SIZE -> number(end);
            default -> { } // ram_file_drv ignores anything else: the caller hangs, as on erts
        }
    }

    private boolean write(byte[] d, int from, int len, int at, boolean advance) {
        if ((flags & MODE_WRITE) == 0) { error("ebadf"); return false; }
        long last = (long) at + len;
        if (at < 0 || last > Integer.MAX_VALUE) { error("einval"); return false; }
        if (last > buf.length) buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE, Math.max(last, (long) buf.length * 2)));
        System.arraycopy(d, from, buf, at, len);
        if (last > end) {
            if (at > end) Arrays.fill(buf, end, at, (byte) 0); // a hole reads as zeros
            end = (int) last;
        }
        if (advance) cur = (int) last;
        return true;
    }

    private void read(int len, int at, boolean advance) {
        if ((flags & MODE_READ) == 0) { error("ebadf"); return; }
        if (len < 0) { error("einval"); return; }
        int n = at < end ? Math.min(len, end - at) : 0;
        if (advance) cur = at + n;
        data(n == 0 ? new byte[0] : Arrays.copyOfRange(buf, at, at + n));
    }

    private static int int32(byte[] d, int at) {
        return (d[at] & 0xFF) << 24 | (d[at + 1] & 0xFF) << 16 | (d[at + 2] & 0xFF) << 8 | (d[at + 3] & 0xFF);
    }

    private void ok() { reply(new byte[] {RESP_OK}, null); }

    private void number(int v) { reply(new byte[] {RESP_NUMBER, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v}, null); }

    private void data(byte[] payload) {
        int v = payload.length;
        reply(new byte[] {RESP_DATA, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v}, payload);
    }

    private void error(String posix) {
        byte[] s = posix.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] h = new byte[s.length + 1];
        h[0] = RESP_ERROR;
        System.arraycopy(s, 0, h, 1, s.length);
        reply(h, null);
    }

    /**
     * driver_output2 / driver_output_binary: in binary mode the header bytes are list elements
     * ending in the payload binary (or [] when there is none); in list mode everything is a list.
     */
    private void reply(byte[] header, byte[] payload) {
        Term tail = payload == null ? ENil.NIL
                : binary ? EBitString.of(payload) : IoLists.bytesToList(payload, 0, payload.length, ENil.NIL);
        tail = IoLists.bytesToList(header, 0, header.length, tail);
        if (!port.isClosed()) vm.sendTo(port.owner, ETuple.of(port.id, ETuple.of(DATA, tail)));
    }
}
