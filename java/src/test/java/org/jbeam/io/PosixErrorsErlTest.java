package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jbeam.bindings.libc.Fcntl;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.Sockets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.jbeam.io.RingHarness.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ring's error results, mapped by {@link PosixErrors}, against the atoms the real erl returns
 * for the same failing operations (one erl run): file:open of a missing file, of a directory for
 * writing, exclusive on an existing file, through a regular file; gen_tcp:connect to a closed
 * port. (A closed fd is not comparable: prim_file answers einval from its own handle state.)
 */
class PosixErrorsErlTest {
    @TempDir Path dir;

    @Test
    void ringErrorsMatchErl() throws Exception {
        Path f = dir.resolve("exists");
        Files.writeString(f, "x");
        int[] l = listener();
        int closedPort = l[1];
        Libc.close(l[0]);   // nothing listens there any more

        String q = "\"";
        String eval = "P = fun(R) -> io:format(\"~p~n\", [R]) end,"
                + "{error, A} = file:open(" + q + dir.resolve("missing") + q + ", [read]), P(A),"
                + "{error, B} = file:open(" + q + dir + q + ", [write]), P(B),"
                + "{error, C} = file:open(" + q + f + q + ", [write, exclusive]), P(C),"
                + "{error, D} = file:open(" + q + f + "/x" + q + ", [read]), P(D),"
                + "{error, G} = gen_tcp:connect({127,0,0,1}, " + closedPort + ", []), P(G),"
                + "halt().";
        Process p = new ProcessBuilder("erl", "-noshell", "-eval", eval).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        List<String> expected = out.lines().toList();

        List<String> ours = new ArrayList<>();
        try (CompletionRing ring = new ThreadPoolRing(); CompletionRing uring = IoUringRing.unavailableReason() == null ? new IoUringRing(8) : null;
             Arena arena = Arena.ofShared()) {
            for (CompletionRing r : uring == null ? List.of(ring) : List.of(ring, uring)) {
                ours.clear();
                ours.add(atom(await(r, c -> r.openat(1, Fcntl.AT_FDCWD, dir.resolve("missing").toString(), Fcntl.O_RDONLY, 0, c))));
                ours.add(atom(await(r, c -> r.openat(2, Fcntl.AT_FDCWD, dir.toString(), Fcntl.O_WRONLY | Fcntl.O_CREAT, 0644, c))));
                ours.add(atom(await(r, c -> r.openat(3, Fcntl.AT_FDCWD, f.toString(), Fcntl.O_WRONLY | Fcntl.O_CREAT | Fcntl.O_EXCL, 0644, c))));
                ours.add(atom(await(r, c -> r.openat(4, Fcntl.AT_FDCWD, f + "/x", Fcntl.O_RDONLY, 0, c))));
                int s = tcpSocket();
                MemorySegment addr = Sockets.sockaddrIn(arena, Sockets.INADDR_LOOPBACK, closedPort);
                ours.add(atom(await(r, c -> r.connect(6, s, addr, c))));
                Libc.close(s);
                assertEquals(expected, ours, r.backendName() + " vs erl output: " + out);
            }
        }
    }

    private static String atom(int res) { return PosixErrors.atom(res).toString(); }
}
