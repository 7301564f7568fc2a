package org.jbeam.tty;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jbeam.bindings.libc.Termios;
import org.jbeam.bif.IoLists;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * erts' "tty_sl" driver, which OTP's user_drv opens as {@code open_port({spawn, 'tty_sl -c -e'}, [eof])}
 * for the line-editing shell: it puts the terminal into character mode (-c: no canonical input,
 * -e: no echo; +/-s for signals), sends keystrokes to user_drv as {@code {Port, {data, Bytes}}}
 * (UTF-8), and carries out user_drv's output commands on the smart line ({@link TtyLine}).
 * Like erts it opens only when standard input and output are both terminals; otherwise user_drv
 * falls back to OTP's plain line-based user. The terminal's modes are restored when the port
 * closes and when the JVM exits.
 */
public final class TtyDriver implements Ports.Driver {
    private static final int OP_PUTC = 0, OP_MOVE = 1, OP_INSC = 2, OP_DELC = 3, OP_BEEP = 4, OP_PUTC_SYNC = 5;
    /** user_drv's control operations are 100, 101, 102 plus this (ERTS_TTYSL_DRV_CONTROL_MAGIC_NUMBER). */
    private static final int CTRL_MAGIC = 0x018b0900;
    private static final AtomicBoolean OPEN = new AtomicBoolean();
    private static final Arena ARENA = Arena.global();
    /** The terminal's modes before tty_sl changed them (restored at close and exit). */
    private static MemorySegment saved;
    private static volatile boolean hookInstalled, colsChanged;

    private final Runtime vm;
    private final Ports.Port port;
    private final TtyLine line = new TtyLine();
    private volatile boolean closed;

    private TtyDriver(Runtime vm, Ports.Port port, boolean utf8) {
        this.vm = vm;
        this.port = port;
        line.utf8 = utf8;
        updateCols();
    }

    /** open_port({spawn, "tty_sl ..."}, _): the port, or null when there is no terminal (erts' start fails then). */
    public static EPort open(ErlProcess p, String command) {
        if (!Termios.isatty(0) || !Termios.isatty(1)) return null;
        // erts needs the terminal's cursor capabilities from termcap: a dumb or unknown terminal has none.
        String term = System.getenv("TERM");
        if (term == null || term.isEmpty() || term.equals("dumb")) return null;
        if (!OPEN.compareAndSet(false, true)) return null;
        int canon = 0, echo = 0, sig = 0;
        for (String a : command.trim().split(" +")) {
            if (a.length() < 2 || (a.charAt(0) != '+' && a.charAt(0) != '-')) continue;
            int flag = a.charAt(0) == '+' ? 1 : -1;
            switch (a.charAt(1)) {
                case 'c' -> canon = flag;
                case 'e' -> echo = flag;
                case 's' -> sig = flag;
                default -> { }
            }
        }
        if (!setModes(canon, echo, sig)) { OPEN.set(false); return null; }
        String loc = firstSet("LC_ALL", "LC_CTYPE", "LANG");
        boolean utf8 = loc != null && (loc.toUpperCase().contains("UTF-8") || loc.toUpperCase().contains("UTF8"));
        EPort id = p.vm.ports.openDriver(p.pid, "tty_sl", pt -> new TtyDriver(p.vm, pt, utf8));
        TtyDriver d = (TtyDriver) p.vm.ports.get(id).driver;
        d.startReader();
        return id;
    }

    private static String firstSet(String... names) {
        for (String n : names) {
            String v = System.getenv(n);
            if (v != null && !v.isEmpty()) return v;
        }
        return null;
    }

    /** tty_init + tty_set of ttsl_drv.c. */
    private static synchronized boolean setModes(int canon, int echo, int sig) {
        if (saved == null) {
            saved = ARENA.allocate(Termios.SIZE);
            if (Termios.tcgetattr(0, saved) < 0) { saved = null; return false; }
        }
        MemorySegment t = ARENA.allocate(Termios.SIZE);
        t.copyFrom(saved);
        int iflag = Termios.flag(t, Termios.C_IFLAG) & ~Termios.ISTRIP, oflag = Termios.flag(t, Termios.C_OFLAG),
                lflag = Termios.flag(t, Termios.C_LFLAG);
        if (canon > 0) { iflag |= Termios.ICRNL; lflag |= Termios.ICANON; oflag |= Termios.OPOST; }
        if (canon < 0) {
            iflag &= ~Termios.ICRNL; lflag &= ~Termios.ICANON; oflag &= ~Termios.OPOST;
            Termios.setCc(t, Termios.VMIN, 1);
            Termios.setCc(t, Termios.VTIME, 0);
        }
        if (echo > 0) lflag |= Termios.ECHO;
        if (echo < 0) lflag &= ~Termios.ECHO;
        int sigI = Termios.BRKINT | Termios.IGNPAR | Termios.ICRNL | Termios.IXON | Termios.IXANY;
        if (sig > 0) { iflag |= sigI; lflag |= Termios.ISIG | Termios.IEXTEN; }
        if (sig < 0) { iflag &= ~sigI; lflag &= ~(Termios.ISIG | Termios.IEXTEN); }
        Termios.setFlag(t, Termios.C_IFLAG, iflag);
        Termios.setFlag(t, Termios.C_OFLAG, oflag);
        Termios.setFlag(t, Termios.C_LFLAG, lflag);
        if (Termios.tcsetattr(0, t) < 0) return false;
        if (!hookInstalled) {
            hookInstalled = true;
            org.jbeam.runtime.ExitHooks.add(TtyDriver::restore);
            try {
                sun.misc.Signal.handle(new sun.misc.Signal("WINCH"), s -> colsChanged = true);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // no SIGWINCH here: the width is read again at each open
            }
        }
        return true;
    }

    private static synchronized void restore() {
        if (saved != null) Termios.tcsetattr(0, saved);
    }

    private void updateCols() {
        int[] ws = Termios.windowSize(1);
        line.cols = ws != null && ws[0] > 0 ? ws[0] : 80;
    }

    /** Keystrokes to user_drv, whole UTF-8 characters at a time (latin-1 bytes converted). */
    private void startReader() {
        Thread.ofPlatform().daemon(true).name("jbeam-tty-reader").start(() -> {
            FileInputStream in = new FileInputStream(FileDescriptor.in);
            byte[] buf = new byte[1024];
            int carry = 0;
            try {
                while (!closed) {
                    int n = in.read(buf, carry, buf.length - carry);
                    if (n < 0 || closed) break;
                    n += carry;
                    int whole = line.utf8 ? completeUtf8(buf, n) : n;
                    deliver(buf, whole);
                    carry = n - whole;
                    System.arraycopy(buf, whole, buf, 0, carry);
                }
            } catch (IOException e) {
                // the terminal went away
            }
            // The port was opened with eof (user_drv passes it on to the shell).
            if (!closed) vm.sendTo(port.owner, ETuple.of(port.id, EAtom.of("eof")));
        });
    }

    private static int completeUtf8(byte[] b, int n) {
        for (int back = 1; back <= 3 && back <= n; back++) {
            int c = b[n - back] & 0xFF;
            if ((c & 0xC0) == 0x80) continue;
            int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            return len > back ? n - back : n;
        }
        return n;
    }

    private void deliver(byte[] b, int n) {
        if (n == 0) return;
        Term data;
        if (line.utf8) {
            data = IoLists.bytesToList(b, 0, n, ENil.NIL);
        } else {
            byte[] u = new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            data = IoLists.bytesToList(u, 0, u.length, ENil.NIL);
        }
        vm.sendTo(port.owner, ETuple.of(port.id, ETuple.of(EAtom.of("data"), data)));
    }

    @Override
    public synchronized void output(ErlProcess caller, byte[] d) {
        if (d.length == 0 || closed) return;
        if (colsChanged) { colsChanged = false; updateCols(); }
        switch (d[0]) {
            case OP_PUTC, OP_PUTC_SYNC -> line.putChars(d, 1, d.length - 1);
            case OP_MOVE -> { if (d.length >= 3) line.moveRel(sint16(d)); }
            case OP_INSC -> line.insChars(d, 1, d.length - 1);
            case OP_DELC -> { if (d.length >= 3) line.delChars(sint16(d)); }
            case OP_BEEP -> line.beep();
            default -> { } // unknown: ignored, as erts does
        }
        vm.writeStdout(line.out.toByteArray());
        line.out.reset();
        if (d[0] == OP_PUTC_SYNC) vm.sendTo(port.owner, ETuple.of(port.id, EAtom.OK));
    }

    private static int sint16(byte[] d) { return (short) ((d[1] << 8) | (d[2] & 0xFF)); }

    @Override
    public Term control(ErlProcess caller, int op, byte[] data) {
        switch (op - CTRL_MAGIC) {
            case 100 -> {
                int[] ws = Termios.windowSize(1);
                int w = ws != null && ws[0] > 0 ? ws[0] : 80, h = ws != null && ws[1] > 0 ? ws[1] : 24;
                return bytes(w & 0xFF, w >>> 8 & 0xFF, w >>> 16 & 0xFF, w >>> 24, h & 0xFF, h >>> 8 & 0xFF, h >>> 16 & 0xFF, h >>> 24);
            }
            case 101 -> { return bytes(line.utf8 ? 1 : 0); }
            case 102 -> {
                if (data.length == 0) return ENil.NIL;
                int old = line.utf8 ? 1 : 0;
                line.utf8 = data[0] != 0;
                return bytes(old);
            }
            default -> { return ENil.NIL; }
        }
    }

    private static Term bytes(int... b) {
        byte[] a = new byte[b.length];
        for (int i = 0; i < b.length; i++) a[i] = (byte) b[i];
        return IoLists.bytesToList(a, 0, a.length, ENil.NIL);
    }

    @Override
    public void stop() {
        closed = true;
        restore();
        OPEN.set(false);
    }
}
