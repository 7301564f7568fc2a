package org.jbeam.cli;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jbeam.ProgramRun;
import org.junit.jupiter.api.Test;

/**
 * scripts/jvm-options.sh caps the young generation at 512 MB where the default heap is large
 * enough for the cap to matter (ADR 0034), and leaves the JVM's own sizing alone, without its
 * inconsistent-size warnings, when JBEAM_JAVA_OPTS gives a heap size. Checked on the real
 * bin/jbeam through the JVM's final flag values.
 */
class JvmOptionsTest {
    private static final long CAP = 512L << 20;

    /** MaxNewSize as the JVM of a bin/jbeam run with these extra options settled it. */
    private static ProgramRun.Out flags(String opts) throws Exception {
        ProgramRun.Out o = ProgramRun.run(List.of(ProgramRun.JBEAM, "-noshell", "-eval", "halt()."), opts + " -XX:+PrintFlagsFinal");
        assertEquals(0, o.status(), o.stderr());
        return o;
    }

    private static long maxNewSize(ProgramRun.Out o) {
        Matcher m = Pattern.compile("size_t MaxNewSize\\s+= (\\d+)").matcher(o.stdout() + o.stderr());
        assertTrue(m.find(), "no MaxNewSize in the flag dump");
        return Long.parseLong(m.group(1));
    }

    /** Memory the JVM sizes its heap from: MemTotal, or a lower cgroup v2 limit. */
    private static long memoryKb() throws Exception {
        long kb = 0;
        for (String l : Files.readAllLines(Path.of("/proc/meminfo")))
            if (l.startsWith("MemTotal:")) kb = Long.parseLong(l.replaceAll("\\D", ""));
        Path cg = Path.of("/sys/fs/cgroup/memory.max");
        if (Files.isReadable(cg)) {
            String s = Files.readString(cg).trim();
            if (s.matches("\\d+")) kb = Math.min(kb, Long.parseLong(s) / 1024);
        }
        return kb;
    }

    @Test
    void youngGenerationCappedWhenTheHeapIsLarge() throws Exception {
        assumeTrue(memoryKb() >= 8L * 1024 * 1024 - 262144, "less than 8 GB: the JVM's own young sizing applies");
        assertEquals(CAP, maxNewSize(flags("")));
    }

    @Test
    void explicitHeapSizeKeepsTheJvmsSizingWithoutWarnings() throws Exception {
        ProgramRun.Out o = flags("-Xmx256m");
        long max = maxNewSize(o);
        assertTrue(max < 256L << 20, "young generation larger than a 256 MB heap: " + max);
        // Unified logging's "[warning]" tag, or the VM's "... VM warning: ..." lines.
        List<String> warnings = o.stderr().lines().filter(l -> l.contains("[warning]") || l.contains("VM warning")).toList();
        assertTrue(warnings.isEmpty(), warnings.toString());
    }
}
