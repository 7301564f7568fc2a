package org.jbeam.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.api.JBeam;
import org.jbeam.api.OtpInstall;

/**
 * {@code bin/jbeam}: a drop-in {@code erl}. Parses erl's command line the way erlexec does
 * (emulator {@code +} flags, {@code -pa}/{@code -pz}, {@code -env}, {@code -extra}), then boots
 * OTP's own {@code init} with the remaining arguments, which handles {@code -s}, {@code -run},
 * {@code -eval}, {@code -noshell} exactly as on erl. The exit status is the one given to
 * {@code erlang:halt}.
 */
public final class Main {
    private Main() {}

    public static void main(String[] argv) throws Exception {
        org.jbeam.loader.LoadStats.mark("main");
        CommandLine cl;
        try {
            cl = CommandLine.parse(ArgsExpansion.expand(argv, System.getenv()).toArray(new String[0]));
        } catch (java.io.IOException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        if (cl.error != null) {
            // erts' complaint about a bad emulator flag, then its usage line (erl prints the flags too)
            // (erts ends its own lines on standard error with CR LF)
            System.err.print(cl.error + "\r\nUsage: beam.smp [flags] [ -- [init_args] ]\r\n");
            System.exit(1);
        }
        if (cl.version) {
            // +V and -version: the emulator prints its version on standard error and exits.
            System.err.print("Erlang (SMP,ASYNC_THREADS) (BEAM) emulator version " + org.jbeam.bif.SystemInfo.ERTS_VERSION + "\r\n");
            System.exit(0);
        }
        Path root = OtpInstall.find();
        if (root == null) {
            System.err.println("jbeam: no Erlang/OTP installation found (set JBEAM_OTP_ROOT or put erl on PATH)");
            System.exit(1);
        }
        Epmd.startIfDistributed(root, cl.rest);
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        OutputStream err = new FileOutputStream(FileDescriptor.err);
        JBeam.Builder b = JBeam.builder().otpRoot(root).stdout(out).stderr(err)
                .stdin(new FileInputStream(FileDescriptor.in)).args(cl.rest);
        if (cl.schedulers > 0) b.schedulers(cl.schedulers);
        if (cl.dirtyCpu > 0) b.dirtyCpuSchedulers(cl.dirtyCpu);
        if (cl.dirtyIo > 0) b.dirtyIoSchedulers(cl.dirtyIo);
        b.limits(cl.limits);
        if (cl.busyWait != null) b.schedulerBusyWait(cl.busyWait);
        if (cl.dbbl > 0) b.distBufBusyLimit(cl.dbbl);
        for (Path p : cl.pathFirst) b.addPathFirst(p);
        for (Path p : cl.pathLast) b.addPathLast(p);
        for (Path p : ErlLibs.ebinDirs()) b.addPathLast(p);
        int status;
        try (JBeam vm = b.build()) {
            org.jbeam.loader.LoadStats.mark("vm built");
            vm.startBoot();
            status = vm.awaitHalt();
            out.flush();
        }
        FastExit.exit(status);
    }

    /** The parts of erl's command line that the emulator (not init) consumes. */
    static final class CommandLine {
        int schedulers = -1, dirtyCpu = -1, dirtyIo = -1;
        /** +sbwt's value (scheduler busy wait threshold), or null. */
        String busyWait;
        /** +zdbbl's value (distribution buffer busy limit, KiB), or 0. */
        int dbbl;
        org.jbeam.runtime.Limits limits = org.jbeam.runtime.Limits.DEFAULT;
        /** +V or -version was given. */
        boolean version;
        /** erts' message for a bad emulator flag value (the node does not start), or null. */
        String error;
        final List<Path> pathFirst = new ArrayList<>(), pathLast = new ArrayList<>();
        /** Arguments passed on to init (everything erlexec does not consume). */
        final List<String> rest = new ArrayList<>();

        static CommandLine parse(String[] a) {
            CommandLine c = new CommandLine();
            int i = 0;
            while (i < a.length) {
                String s = a[i];
                if (s.equals("-extra")) {
                    for (; i < a.length; i++) c.rest.add(a[i]);
                    break;
                }
                if (s.startsWith("+")) {
                    i = c.emulatorFlag(a, i);
                    continue;
                }
                if (s.equals("-pa") || s.equals("-pz")) {
                    List<Path> into = s.equals("-pa") ? c.pathFirst : c.pathLast;
                    c.rest.add(s);
                    i++;
                    int firstInsert = 0;
                    while (i < a.length && !a[i].startsWith("-") && !a[i].startsWith("+")) {
                        if (s.equals("-pa")) into.add(firstInsert++, Path.of(a[i])); else into.add(Path.of(a[i]));
                        c.rest.add(a[i]);
                        i++;
                    }
                    continue;
                }
                // erlexec's shorthands: -compile Files (c:lc_batch halts with the status) and -make
                // (make:all_or_nothing, then halt); -version is the emulator's +V.
                if (s.equals("-compile")) {
                    c.rest.addAll(List.of("-noshell", "-noinput", "-s", "c", "lc_batch"));
                    i++;
                    continue;
                }
                if (s.equals("-make")) {
                    c.rest.addAll(List.of("-noshell", "-noinput", "-s", "make", "all_or_nothing"));
                    c.haltAfterwards = true;
                    i++;
                    continue;
                }
                if (s.equals("-noinput")) { // erlexec: -noinput implies -noshell
                    c.rest.addAll(List.of("-noshell", "-noinput"));
                    i++;
                    continue;
                }
                if (s.equals("-version")) {
                    c.version = true;
                    i++;
                    continue;
                }
                if (s.equals("-env") && i + 2 < a.length) {
                    org.jbeam.bif.OsBifs.putenv(a[i + 1], a[i + 2]);
                    i += 3;
                    continue;
                }
                c.rest.add(s);
                i++;
            }
            if (c.haltAfterwards) {
                int extra = c.rest.indexOf("-extra");
                c.rest.addAll(extra < 0 ? c.rest.size() : extra, List.of("-s", "erlang", "halt"));
            }
            return c;
        }

        private boolean haltAfterwards;

        private static boolean attachedValue(String flag) { return !flag.equals("+SDcpu") && !flag.equals("+SDio"); }

        private int emulatorFlag(String[] a, int i) {
            String s = a[i];
            String name = s.length() > 1 ? s.substring(1, 2) : "";
            boolean attached = s.length() > 2;
            String val = attached ? s.substring(2) : (i + 1 < a.length ? a[i + 1] : null);
            if (s.startsWith("+S") && !s.startsWith("+SD") && !s.startsWith("+SP")) {
                if (val != null) {
                    String n = val.split(":")[0];
                    try { schedulers = Integer.parseInt(n); } catch (NumberFormatException e) { /* erl: usage error */ }
                }
            }
            if ((s.startsWith("+SDcpu") || s.startsWith("+SDio")) && !attachedValue(s)) {
                String v = i + 1 < a.length ? a[i + 1].split(":")[0] : "";
                try {
                    if (s.equals("+SDcpu")) dirtyCpu = Integer.parseInt(v); else if (s.equals("+SDio")) dirtyIo = Integer.parseInt(v);
                } catch (NumberFormatException e) { /* erl: usage error */ }
                return i + 2;
            }
            if (s.equals("+sbwt") && i + 1 < a.length) {
                if (org.jbeam.runtime.Scheduler.busyWaitNanos(a[i + 1]) >= 0) busyWait = a[i + 1];
                else if (error == null) error = "bad scheduler busy wait threshold: " + a[i + 1];
            }
            if (s.equals("+zdbbl") && i + 1 < a.length) {
                int v = -1;
                try { v = Integer.parseInt(a[i + 1]); } catch (NumberFormatException e) { /* erl: usage error below */ }
                if (v >= 1 && v <= 2097151) dbbl = v;
                else if (error == null) error = "Invalid dbbl limit: " + a[i + 1];
            }
            if (s.equals("+V")) version = true;
            if ((name.equals("P") || name.equals("Q") || name.equals("A")) && val != null) {
                try {
                    limits = limits.withFlag(name.charAt(0), val);
                } catch (IllegalArgumentException e) {
                    if (error == null) error = e.getMessage();
                }
            }
            // Flags taking a separate value: skip it too, as erlexec does. One letter: +A 10,
            // +P 100000, +S 4, +K true, +W w, +c true. A switch of a family: +MBas ageffcbf (every
            // allocator flag), +sbt db, +hms 233, +rg 4, +zdbbl 128000, +pc unicode, +SDcpu 2, +IOt 2.
            boolean takesValue = attached
                    ? "MshrzpI".contains(name) || s.startsWith("+SD") || s.startsWith("+SP")
                    : "#aACeinPQSJstTRWKc".contains(name);
            if (takesValue && val != null && !val.startsWith("-") && !val.startsWith("+")
                    && (!s.equals("+c") || val.equals("true") || val.equals("false")))
                return i + 2;
            if (s.equals("+B") && val != null && (val.equals("i") || val.equals("c") || val.equals("d"))) return i + 2; // +B i (RabbitMQ)
            return i + 1;
        }
    }
}
