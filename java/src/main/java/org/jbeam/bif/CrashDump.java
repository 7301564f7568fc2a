package org.jbeam.bif;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import org.jbeam.runtime.Runtime;
import org.jbeam.term.Term;

/**
 * erlang:halt(Slogan): what erts does when the node dies with a slogan — the slogan on standard
 * error, then a crash dump file ({@code $ERL_CRASH_DUMP} or {@code erl_crash.dump}): the header,
 * =memory, one =proc section per process and the loaded-code summary (SystemDump); no =ets, =port,
 * =atoms or module sections yet.
 */
public final class CrashDump {
    private CrashDump() {}

    public static void write(Runtime vm, String slogan) {
        String name = System.getenv().getOrDefault("ERL_CRASH_DUMP", "erl_crash.dump");
        String text = "=erl_crash_dump:0.5\n"
                + ZonedDateTime.now().format(DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", java.util.Locale.ENGLISH)) + "\n"
                + "Slogan: " + slogan + "\n"
                + "System version: Erlang/OTP " + SystemInfo.OTP_RELEASE + " [erts-" + SystemInfo.ERTS_VERSION + "] [jbeam]\n"
                + "Taints: " + taintList() + "\n"
                + "Atoms: " + org.jbeam.term.EAtom.count() + "\n"
                + "Calling Thread: scheduler:1\n"
                + SystemDump.memory()
                + SystemDump.procs(null, vm)
                + "=loaded_modules\n" + SystemDump.loaded(vm)
                + "=end\n";
        boolean ok;
        try {
            Files.writeString(Path.of(name), text, StandardCharsets.UTF_8);
            ok = true;
        } catch (IOException e) {
            ok = false;
        }
        // erts writes these lines with CRLF, whatever stderr is.
        vm.writeStderr((slogan + "\r\n\r\nCrash dump is being written to: " + name + "..." + (ok ? "done" : "failed") + "\r\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String taintList() {
        StringBuilder sb = new StringBuilder();
        for (Term t = LoadNif.taints(); t instanceof org.jbeam.term.ECons c; t = c.tail) {
            if (sb.length() > 0) sb.append(',');
            sb.append(((org.jbeam.term.EAtom) c.head).name);
        }
        return sb.toString();
    }
}
