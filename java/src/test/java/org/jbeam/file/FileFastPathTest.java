package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.LibcFiles;
import org.junit.jupiter.api.Test;

/**
 * The calls under prim_file's synchronous paths (ADR 0012) on real descriptors: the critical
 * heap read through libjbeam_native's jbeam_preadv2 (present in every build), RWF_NOWAIT
 * refusing (EAGAIN or EOPNOTSUPP) on an empty FIFO instead of blocking, reads and writes at offsets inside
 * Java arrays, errno on a bad descriptor, and the regular-file check the write path relies on.
 */
class FileFastPathTest {
    @Test
    void heapReadIsBuiltAndLoaded() {
        assertTrue(LibcFiles.hasHeapRead(), "libjbeam_native.so with jbeam_preadv2 not found under -Djbeam.nativeDir");
    }

    @Test
    void heapReadsAndWritesUseTheArrayRange() throws Exception {
        Path dir = Files.createTempDirectory("fast");
        Path f = dir.resolve("f");
        try {
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ | FileHandle.WRITE);
            byte[] src = new byte[300];
            for (int i = 0; i < src.length; i++) src[i] = (byte) i;
            assertEquals(100, LibcFiles.writeHeap(h.fd, src, 50, 100, -1));      // bytes 50..149 at position 0
            assertEquals(10, LibcFiles.writeHeap(h.fd, src, 0, 10, 200));        // pwrite leaves a hole
            assertTrue(h.isRegular());
            byte[] dst = new byte[400];
            assertEquals(100, LibcFiles.preadv2Heap(h.fd, dst, 7, 100, 0, LibcFiles.RWF_NOWAIT));
            assertArrayEquals(Arrays.copyOfRange(src, 50, 150), Arrays.copyOfRange(dst, 7, 107));
            assertEquals(0, dst[6]);
            assertEquals(0, dst[107]);
            assertEquals(210, LibcFiles.preadv2Heap(h.fd, dst, 0, 400, 0, LibcFiles.RWF_NOWAIT));  // short at eof
            assertEquals(0, LibcFiles.preadv2Heap(h.fd, dst, 0, 10, 210, LibcFiles.RWF_NOWAIT));
            assertEquals(0, LibcFiles.lseek(h.fd, 0, LibcFiles.SEEK_SET));
            assertEquals(4, LibcFiles.preadv2Heap(h.fd, dst, 0, 4, -1, LibcFiles.RWF_NOWAIT));    // -1: file position
            assertEquals(4, LibcFiles.lseek(h.fd, 0, LibcFiles.SEEK_CUR));
            h.close();
            assertEquals(-Errno.EBADF, LibcFiles.preadv2Heap(h.fd, dst, 0, 4, 0, LibcFiles.RWF_NOWAIT));
            assertEquals(-Errno.EBADF, LibcFiles.writeHeap(h.fd, src, 0, 4, -1));
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void nowaitOnAnEmptyFifoIsEagainNotABlock() throws Exception {
        Path dir = Files.createTempDirectory("fast");
        Path fifo = dir.resolve("p");
        try {
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            FileHandle h = FileOps.openUnregistered(fifo, FileHandle.READ | FileHandle.WRITE | FileHandle.SKIP_TYPE_CHECK);
            byte[] dst = new byte[8];
            // Either answer means "not now" and sends the read to the ring (this kernel: EOPNOTSUPP,
            // FIFOs opened blocking do not take RWF_NOWAIT); what must not happen is a wait.
            long r = LibcFiles.preadv2Heap(h.fd, dst, 0, 8, -1, LibcFiles.RWF_NOWAIT);
            assertTrue(r == -Errno.EAGAIN || r == -Errno.EOPNOTSUPP, "empty FIFO: " + r);
            assertTrue(!h.isRegular());
            assertEquals(3, LibcFiles.writeHeap(h.fd, new byte[] {1, 2, 3}, 0, 3, -1));
            if (r == -Errno.EAGAIN) {
                assertEquals(3, LibcFiles.preadv2Heap(h.fd, dst, 2, 6, -1, LibcFiles.RWF_NOWAIT));   // part of what was asked
            } else {
                assertEquals(-Errno.EOPNOTSUPP, LibcFiles.preadv2Heap(h.fd, dst, 2, 6, -1, LibcFiles.RWF_NOWAIT));
                assertEquals(3, LibcFiles.preadv2Heap(h.fd, dst, 2, 6, -1, 0));       // without the flag: the data
            }
            assertArrayEquals(new byte[] {0, 0, 1, 2, 3, 0, 0, 0}, dst);
            h.close();
        } finally {
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }

    /** read_file's array is sized from fstat (size + 1); the final eof read must not grow it. */
    @Test
    void readFileFillsItsArrayWithoutGrowingIt() throws Exception {
        Path dir = Files.createTempDirectory("fast");
        Path f = dir.resolve("f");
        try {
            byte[] data = new byte[300_000];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i % 253);
            Files.write(f, data);
            org.jbeam.term.Term r = new PrimFileShim("/").nif("read_file_nif", org.jbeam.term.EBitString.ofLatin1(f + "\0"));
            org.jbeam.term.EBitString b = (org.jbeam.term.EBitString) ((org.jbeam.term.ETuple) r).get(1);
            assertArrayEquals(data, b.toByteArray());
            assertEquals(data.length + 1, b.array().length);
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * ADR 0023: a cached read and a small write to a regular file finish inside {@link FileIo.Op#now}
     * (the NIF returns the term; no AsyncCall, no ring); a larger write returns null there and
     * finishes on the ring through {@link FileIo.Op#ring}'s reply; an empty FIFO's read returns null.
     */
    @Test
    void cachedReadsAndSmallWritesFinishInTheNif() throws Exception {
        Path dir = Files.createTempDirectory("fast");
        Path f = dir.resolve("f"), fifo = dir.resolve("p");
        try {
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ | FileHandle.WRITE);
            byte[] data = new byte[70_000];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i % 251);
            assertTrue(h.acquire());
            FileIo.clearSlowWriteGuard();   // an earlier slow write (another test, a loaded machine) sends writes to the ring for 1 s
            assertEquals(org.jbeam.term.EAtom.OK, FileIo.write(h, 0, new org.jbeam.term.EBitString[] {org.jbeam.term.EBitString.of(data, 0, 60_000)}).now());
            assertTrue(h.acquire());    // over -Djbeam.io.syncwrite (64 KiB): the ring
            FileIo.Op big = FileIo.write(h, 0, new org.jbeam.term.EBitString[] {org.jbeam.term.EBitString.of(data)});
            assertEquals(null, big.now());
            java.util.concurrent.CompletableFuture<org.jbeam.term.Term> wrote = new java.util.concurrent.CompletableFuture<>();
            big.ring(wrote::complete);
            FileIo.submit();
            assertEquals(org.jbeam.term.EAtom.OK, wrote.get(30, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(h.acquire());
            org.jbeam.term.Term r = FileIo.read(h, 5, 65536).now();
            assertArrayEquals(Arrays.copyOfRange(data, 5, 5 + 65536),
                    ((org.jbeam.term.EBitString) ((org.jbeam.term.ETuple) r).get(1)).toByteArray());
            assertTrue(h.acquire());
            assertEquals(Posix.EOF, FileIo.read(h, data.length, 10).now());
            h.close();
            assertEquals(-Errno.EBADF, LibcFiles.preadv2Heap(h.fd, new byte[1], 0, 1, 0, 0));    // every operation released it

            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            FileHandle p = FileOps.openUnregistered(fifo, FileHandle.READ | FileHandle.WRITE | FileHandle.SKIP_TYPE_CHECK);
            assertTrue(p.acquire());
            assertEquals(null, FileIo.read(p, -1, 8).now());     // nothing cached: the NIF parks the process on the ring
            p.release();                                          // (the ring's FIFO reads: FileBackendsTest)
            p.close();
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }
}
