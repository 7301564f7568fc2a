package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jbeam.bif.BifTable;
import org.jbeam.bif.Natives;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * NIF-level argument handling of PrimFileBifs that prim_file's exported API cannot reach (the
 * *_nif functions are not exported in OTP), checked against prim_file_nif.c / unix_prim_file.c:
 * path marshalling (einval), badarg vs einval for numbers, handle checks, inherited descriptors.
 */
class PrimFileNifTest {
    private final PrimFileShim pf = new PrimFileShim("/");

    private static Term b(String s) { return EBitString.ofLatin1(s); }
    private static Term err(String e) { return ETuple.of(EAtom.ERROR, EAtom.of(e)); }
    private static final Term BADARG = ETuple.of(EAtom.EXIT, EAtom.BADARG);

    @Test
    void pathMarshalling() throws Exception {
        Path dir = Files.createTempDirectory("pfnif");
        Files.writeString(dir.resolve("f"), "data");
        String f = dir.resolve("f").toString();
        assertEquals(err("einval"), pf.nif("read_file_nif", b(f)));              // no NUL
        assertEquals(err("einval"), pf.nif("read_file_nif", b(f + "\0x\0")));    // NUL inside
        assertEquals(err("einval"), pf.nif("read_file_nif", IoListsHelper.chars(f + "\0")));
        assertEquals(err("einval"), pf.nif("read_file_nif", EAtom.of("f")));
        assertEquals(ETuple.of(EAtom.OK, b("data")), pf.nif("read_file_nif", b(f + "\0\0")));  // doubly terminated
        assertEquals(err("enoent"), pf.nif("read_file_nif", b("\0")));
        assertEquals(err("einval"), pf.nif("open_nif", b(f), ENil.NIL));
        assertEquals(BADARG, pf.nif("open_nif", b(f + "\0"), EAtom.of("read")));
        assertEquals(err("enotsup"), pf.nif("altname_nif", b(f + "\0")));
        assertEquals(err("einval"), pf.nif("altname_nif", b(f)));
        assertEquals(err("enotsup"), pf.nif("get_device_cwd_nif", ESmall.of(3)));
        assertEquals(BADARG, pf.nif("get_device_cwd_nif", EAtom.of("c")));
        assertEquals(BADARG, pf.nif("read_info_nif", b(f + "\0"), EAtom.TRUE));
        assertEquals(BADARG, pf.nif("set_permissions_nif", b(f + "\0"), ESmall.of(-1)));
        assertEquals(BADARG, pf.nif("set_time_nif", b(f + "\0"), ESmall.ONE, new EFloat(1.0), ESmall.ONE));
        Files.delete(dir.resolve("f"));
        Files.delete(dir);
    }

    @Test
    void handleChecks() throws Exception {
        Path dir = Files.createTempDirectory("pfnif");
        Term r = pf.nif("open_nif", b(dir.resolve("g") + "\0"), ECons.of(EAtom.of("read"), EAtom.of("write")));
        Term fd = ((ETuple) r).get(1);
        assertTrue(fd instanceof ERef);
        assertEquals(BADARG, pf.nif("read_nif", EAtom.of("fd"), ESmall.ONE));
        assertEquals(BADARG, pf.nif("read_nif", new ERef(EAtom.NONODE, 0, new int[] {1, 0, 0}), ESmall.ONE));
        assertEquals(BADARG, pf.nif("read_nif", fd, EAtom.of("x")));
        assertEquals(err("einval"), pf.nif("read_nif", fd, new EFloat(1.0)));
        assertEquals(err("einval"), pf.nif("read_nif", fd, ESmall.of(-1)));
        assertEquals(Posix.EOF, pf.nif("read_nif", fd, ESmall.ZERO));
        assertEquals(BADARG, pf.nif("write_nif", fd, b("x")));
        assertEquals(BADARG, pf.nif("write_nif", fd, ECons.of(ESmall.ONE)));
        assertEquals(EAtom.OK, pf.nif("write_nif", fd, ENil.NIL));
        assertEquals(BADARG, pf.nif("pwrite_nif", fd, EAtom.of("x"), ENil.NIL));
        assertEquals(err("einval"), pf.nif("pwrite_nif", fd, ESmall.of(-1), ENil.NIL));
        assertEquals(BADARG, pf.nif("seek_nif", fd, EAtom.of("middle"), ESmall.ZERO));
        assertEquals(BADARG, pf.nif("seek_nif", fd, EAtom.of("bof"), new EFloat(0.0)));
        assertEquals(BADARG, pf.nif("sync_nif", fd, EAtom.TRUE));
        // The OS descriptor as a native int (what prim_inet:sendfile hands to tcp_inet).
        Term handle = pf.nif("get_handle_nif", fd);
        assertTrue(handle instanceof EBitString hb && hb.byteSize() == 4, "get_handle_nif: " + handle);
        assertEquals(EAtom.OK, pf.nif("close_nif", fd));
        assertEquals(err("einval"), pf.nif("seek_nif", fd, EAtom.of("bof"), ESmall.ZERO));
        assertEquals(err("einval"), pf.nif("close_nif", fd));
        assertEquals(EAtom.OK, pf.nif("delayed_close_nif", fd));
        Files.delete(dir.resolve("g"));
        Files.delete(dir);
    }

    @Test
    void inheritedDescriptors() {
        Term r = pf.nif("file_desc_to_ref_nif", ESmall.of(2));
        Term fd = ((ETuple) r).get(1);
        assertEquals(EAtom.OK, pf.nif("write_nif", fd, ENil.NIL));
        assertEquals(EAtom.OK, pf.nif("close_nif", fd));
        assertEquals(err("ebadf"), pf.nif("file_desc_to_ref_nif", ESmall.of(999)));
        assertEquals(BADARG, pf.nif("file_desc_to_ref_nif", EAtom.of("x")));
        System.err.flush(); // descriptor 2 is still open for the JVM
    }

    @Test
    void registeredInNatives() {
        BifTable t = new BifTable();
        Natives.all().forEach(m -> m.register(t));
        for (String f : new String[] {"open_nif/2", "read_nif/2", "write_nif/2", "read_info_nif/2", "list_dir_nif/1",
                "internal_name2native/1", "get_cwd_nif/0", "ipread_s32bu_p32bu_nif/3"}) {
            String[] fa = f.split("/");
            assertTrue(t.lookup("prim_file", fa[0], Integer.parseInt(fa[1])) != null, f);
        }
    }

    /** Char lists for the tests. */
    private static final class IoListsHelper {
        static Term chars(String s) { return org.jbeam.bif.IoLists.stringToCharlist(s); }
    }
}
