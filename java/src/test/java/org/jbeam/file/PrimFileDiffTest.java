package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jbeam.bif.IoLists;
import org.jbeam.term.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of PrimFileBifs: one sequence of prim_file operations runs through the real
 * OTP prim_file (one escript run, in its own temp directory) and through jbeam's natives (via
 * {@link PrimFileShim}, in another temp directory); every result must print identically with ~w.
 */
class PrimFileDiffTest {
    private static Term a(String s) { return EAtom.of(s); }
    private static Term s(String s) { return IoLists.stringToCharlist(s); }
    private static Term b(String s) { return EBitString.ofLatin1(s); }
    private static Term i(long v) { return ESmall.of(v); }
    private static Term l(Term... ts) { return ECons.of(ts); }
    private static Term bytes(int... bs) {
        byte[] r = new byte[bs.length];
        for (int k = 0; k < bs.length; k++) r[k] = (byte) bs[k];
        return EBitString.of(r);
    }

    private final List<ETuple> ops = new ArrayList<>();

    private void op(String name, Term... args) {
        Term[] e = new Term[args.length + 1];
        e[0] = a(name);
        System.arraycopy(args, 0, e, 1, args.length);
        ops.add(ETuple.of(e));
    }

    private void ops() {
        op("get_cwd");
        // write-only handle
        op("open", a("f"), s("a.txt"), l(a("write"), a("raw"), a("binary")));
        op("write", a("f"), b("hello world"));
        op("write", a("f"), l(b("ab"), b("cd")));
        op("position", a("f"), a("cur"));
        op("position", a("f"), ETuple.of(a("bof"), i(-1)));
        op("position", a("f"), ETuple.of(a("eof"), i(-5)));
        op("read", a("f"), i(3));
        op("pwrite", a("f"), i(0), b("H"));
        op("pread", a("f"), i(0), i(3));
        op("truncate", a("f"));
        op("allocate", a("f"), i(20), i(5));
        op("allocate", a("f"), i(0), i(0));
        op("sync", a("f"));
        op("datasync", a("f"));
        op("advise", a("f"), i(0), i(0), a("normal"));
        op("advise", a("f"), i(0), i(0), a("bogus"));
        op("advise", a("f"), i(-1), i(0), a("normal"));
        op("read_handle_info", a("f"));
        op("close", a("f"));
        op("close", a("f"));
        op("read", a("f"), i(1));
        op("read_file", s("a.txt"));
        // read-only handle
        op("open", a("g"), s("a.txt"), l(a("read")));
        op("read", a("g"), i(5));
        op("read", a("g"), i(100));
        op("read", a("g"), i(10));
        op("read", a("g"), i(-1));
        op("pread", a("g"), i(100), i(3));
        op("pread", a("g"), i(3), i(0));
        op("pread", a("g"), i(-3), i(1));
        op("pread", a("g"), i(1), i(4));
        op("position", a("g"), ETuple.of(a("cur"), i(-3)));
        op("read", a("g"), i(2));
        op("write", a("g"), b("x"));
        op("truncate", a("g"));
        op("allocate", a("g"), i(0), i(1));
        op("read_handle_info", a("g"));
        op("position", a("g"), a("eof"));
        op("position", a("g"), i(4));
        op("read", a("g"), i(3));
        op("close", a("g"));
        // read-write, append
        op("open", a("h"), s("a.txt"), l(a("read"), a("write")));
        op("write", a("h"), b("ZZ"));
        op("pread", a("h"), i(0), i(4));
        op("position", a("h"), a("cur"));
        op("close", a("h"));
        op("open", a("ap"), s("a.txt"), l(a("read"), a("append")));
        op("read", a("ap"), i(2));
        op("write", a("ap"), b("END"));
        op("position", a("ap"), a("cur"));
        op("pwrite", a("ap"), i(0), b("Q"));
        op("position", a("ap"), a("cur"));
        op("close", a("ap"));
        op("read_file", s("a.txt"));
        op("open", a("w2"), s("b.txt"), l(a("append")));
        op("write", a("w2"), b("one"));
        op("write", a("w2"), b("two"));
        op("close", a("w2"));
        op("open", a("w3"), s("b.txt"), l(a("append")));
        op("write", a("w3"), b("three"));
        op("close", a("w3"));
        op("read_file", s("b.txt"));
        // DETS' indirect read: pointer <<Size:32, Offset:32>> at 0, payload at 8
        op("open", a("ip"), s("ip.bin"), l(a("read"), a("write")));
        op("write", a("ip"), bytes(0, 0, 0, 3, 0, 0, 0, 8, 'x', 'y', 'z'));
        op("ipread", a("ip"), i(0), i(100));
        op("ipread", a("ip"), i(0), i(2));
        op("ipread", a("ip"), i(5), i(100));
        op("close", a("ip"));
        // open modes and errors
        op("open", a("x"), s("a.txt"), l(a("exclusive")));
        op("open", a("x"), s("new.txt"), l(a("exclusive")));
        op("close", a("x"));
        op("open", a("x"), s("nope.txt"), l(a("read")));
        op("open", a("x"), s("nope/x"), l(a("write")));
        op("open", a("x"), s("a.txt/x"), l(a("write")));
        op("open", a("x"), s("a.txt/"), l(a("read")));
        op("open", a("x"), s("."), l(a("read")));
        op("open", a("x"), s("."), l(a("write")));
        op("open", a("x"), s(""), l(a("read")));
        op("open", a("x"), s("a.txt"), a("read"));
        op("open", a("x"), a("a.txt"), l(a("read")));
        op("open", a("x"), s("a.txt"), l(a("read"), a("directory")));
        op("open", a("dd"), s("."), l(a("read"), a("directory")));
        op("read", a("dd"), i(4));
        op("write", a("dd"), b("a"));
        op("close", a("dd"));
        op("open", a("x"), s("a.txt"), l());
        op("read", a("x"), i(4));
        op("close", a("x"));
        // directories
        op("make_dir", s("d"));
        op("make_dir", s("d"));
        op("make_dir", s("nope/d"));
        op("make_dir", s("a.txt/d"));
        op("open", a("x"), s("d/in.txt"), l(a("write")));
        op("write", a("x"), b("inside"));
        op("close", a("x"));
        op("list_dir", s("d"));
        op("list_dir", s("a.txt"));
        op("list_dir", s("nope"));
        op("list_dir", s("."));
        op("read_file", s("d"));
        op("read_file", s("nope"));
        op("read_file_info", s("d"));
        op("read_file_info", s("nope"));
        op("del_dir", s("d"));
        op("delete", s("d"));
        op("del_dir", s("a.txt"));
        op("del_dir", s("nope"));
        // rename
        op("rename", s("d"), s("a.txt"));
        op("rename", s("a.txt"), s("d"));
        op("make_dir", s("e"));
        op("rename", s("e"), s("d"));
        op("rename", s("b.txt"), s("c.txt"));
        op("rename", s("nope"), s("z"));
        op("rename", s("new.txt"), s("c.txt"));
        op("rename", s("/"), s("zz"));
        op("read_file", s("c.txt"));
        op("list_dir", s("."));
        // links
        op("make_symlink", s("a.txt"), s("ln"));
        op("read_link", s("ln"));
        op("read_link", s("a.txt"));
        op("read_link", s("nope"));
        op("read_link_info", s("ln"));
        op("read_file_info", s("ln"));
        op("make_symlink", s("x"), s("ln"));
        op("make_symlink", s("dangling"), s("dl"));
        op("read_file_info", s("dl"));
        op("read_link_info", s("dl"));
        op("make_symlink", s("loop"), s("loop"));
        op("read_file_info", s("loop"));
        op("open", a("x"), s("loop"), l(a("read")));
        op("make_link", s("a.txt"), s("hl"));
        op("read_file_info", s("a.txt"));
        op("make_link", s("d"), s("hl2"));
        op("make_link", s("a.txt"), s("hl"));
        op("make_link", s("nope"), s("q"));
        op("delete", s("hl"));
        op("delete", s("nope"));
        op("delete", s("ln"));
        op("read_file_info", s("a.txt"));
        // write_file_info: owner (unchanged), mode and times
        op("write_file_info", s("a.txt"), i(0600), i(1000000000), i(1100000000));
        op("read_file_info_t", s("a.txt"));
        op("write_file_info", s("a.txt"), i(04755), i(1200000000), i(1300000000));
        op("read_file_info_t", s("a.txt"));
        op("write_file_info", s("nope"), i(0644), i(1), i(2));
        // working directory
        op("set_cwd", s("a.txt"));
        op("set_cwd", s("nope"));
        op("set_cwd", s("d"));
        op("get_cwd");
        op("read_file", s("in.txt"));
        op("set_cwd", s(".."));
        op("get_cwd");
        op("del_dir", s("e"));
        // file name BIFs
        for (Term n : new Term[] {s("abc"), b("abc"), a("abc"), l(i('a'), l(i('b'), s("c"))), l(i('a'), i(955)),
                b("a\0"), l(i('a'), i(0)), l(), b(""), l(s("a"), b("b")), new ECons(i('a'), i('b')), i(1),
                bytes(255), l(i(0xD800)), l(i(0x110000)), l(i(255))})
            op("name2native", n);
        for (Term n : new Term[] {b("abc"), bytes(206, 187), bytes(255), b(""), a("abc"), s("abc"), b("a\0")})
            op("native2name", n);
        for (Term n : new Term[] {b("abc"), bytes(255), s("abc"), a("abc"), b("")})
            op("is_translatable", n);
        for (Term n : new Term[] {b("abc"), bytes('a', 204, 129), bytes(255)})
            op("normalize_utf8", n);
        // prim_buffer
        op("buf_new", a("q"));
        op("buf", a("q"), a("size"), l());
        op("buf", a("q"), a("read"), l(i(1)));
        op("buf", a("q"), a("find_byte_index"), l(i('\n')));
        op("buf", a("q"), a("write"), l(l(b("ab\ncd"), b(""), b("ef\n"))));
        op("buf", a("q"), a("write"), l(b("x")));
        op("buf", a("q"), a("size"), l());
        op("buf", a("q"), a("find_byte_index"), l(i('\n')));
        op("buf", a("q"), a("find_byte_index"), l(i(256)));
        op("buf", a("q"), a("read"), l(i(4)));
        op("buf", a("q"), a("find_byte_index"), l(i('\n')));
        op("buf", a("q"), a("skip"), l(i(1)));
        op("buf", a("q"), a("read"), l(i(9)));
        op("buf", a("q"), a("read"), l(i(-1)));
        op("buf", a("q"), a("read"), l(i(2)));
        op("buf", a("q"), a("wipe"), l());
        op("buf", a("q"), a("size"), l());
        op("buf", a("q"), a("find_byte_index"), l(i('x')));
        op("buf", a("q"), a("unlock"), l());
        op("buf", a("q"), a("try_lock"), l());
        op("buf", a("q"), a("try_lock"), l());
        op("buf", a("q"), a("unlock"), l());
    }

    /** The natives' data path runs on the completion ring: the same operations on each backend. */
    @ParameterizedTest @ValueSource(strings = {"default", "threads"})
    void sameResultsAsOtp(String backend) throws Exception {
        if (backend.equals("default")) { sameResultsAsOtp(); return; }
        org.jbeam.io.CompletionRing ring = new org.jbeam.io.ThreadPoolRing();
        org.jbeam.io.CompletionRing previous = org.jbeam.io.SharedRing.replaceForTests(ring);
        try { sameResultsAsOtp(); }
        finally { org.jbeam.io.SharedRing.replaceForTests(previous); ring.close(); }
    }

    private void sameResultsAsOtp() throws Exception {
        ops.clear();
        ops();
        Path tmp = Files.createTempDirectory("primfile");
        Path erlDir = Files.createDirectory(tmp.resolve("erl")), jDir = Files.createDirectory(tmp.resolve("jbeam"));
        StringBuilder opsText = new StringBuilder();
        for (ETuple o : ops) opsText.append(TermPrinter.print(o)).append(".\n");
        Path opsFile = tmp.resolve("ops.txt"), script = tmp.resolve("prim_file_diff.escript");
        Files.writeString(opsFile, opsText, StandardCharsets.UTF_8);
        try (InputStream in = getClass().getResourceAsStream("prim_file_diff.escript")) { Files.write(script, in.readAllBytes()); }
        Process p = new ProcessBuilder("escript", script.toString(), opsFile.toString(), erlDir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.waitFor(), out);
        String[] expected = out.split("\n");
        assertTrue(expected.length >= ops.size(), "erl printed " + expected.length + " lines for " + ops.size() + " ops:\n" + out);

        Path savedCwd = FileNames.cwd();
        StringBuilder fails = new StringBuilder();
        int failed = 0;
        try {
            PrimFileShim shim = new PrimFileShim(jDir.toRealPath().toString());
            assertEquals(EAtom.OK, shim.nif("set_cwd_nif", shim.nif("internal_name2native", IoLists.stringToCharlist(jDir.toString()))));
            for (int k = 0; k < ops.size(); k++) {
                String got = TermPrinter.print(shim.run(ops.get(k)));
                if (Boolean.getBoolean("jbeam.test.verbose")) System.out.println(TermPrinter.print(ops.get(k)) + " -> " + got);
                if (!got.equals(expected[k])) {
                    failed++;
                    fails.append("\n  ").append(TermPrinter.print(ops.get(k))).append("\n    erl:   ").append(expected[k])
                            .append("\n    jbeam: ").append(got);
                }
            }
        } finally {
            shim0(savedCwd);
            try (var w = Files.walk(tmp)) {
                w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        assertTrue(failed == 0, failed + " of " + ops.size() + " operations differ:" + fails);
    }

    private static void shim0(Path cwd) throws Exception { FileNames.setCwd(cwd); }
}
