package org.jbeam.file;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.bif.PrimFileBifs;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Test-side transcription of what prim_file.erl does around each NIF (encode_path, the
 * try/catch badarg wrappers, list_dir/read_link name decoding, position/2 argument forms,
 * write_file_info's owner/permissions/time sequence), so the operations of
 * prim_file_diff.escript can be replayed against PrimFileBifs without the interpreter.
 */
final class PrimFileShim {
    private final BifTable table = new BifTable();
    private final Map<Term, Term> fds = new HashMap<>();
    private final String base;

    PrimFileShim(String base) {
        new PrimFileBifs().register(table);
        this.base = base;
    }

    /** Calls prim_file:Name/Arity's native; an Erlang error comes back as {'EXIT', Reason}. */
    Term nif(String name, Term... args) {
        BifTable.Entry e = table.lookup("prim_file", name, args.length);
        if (e == null) throw new IllegalStateException("no native prim_file:" + name + "/" + args.length);
        try {
            return Bif.invoke(e.fn(), null, args);
        } catch (ErlangException x) {
            return ETuple.of(EAtom.EXIT, x.reason);
        }
    }

    /** prim_file's "try NIF catch error:badarg -> {error, badarg}" (encode_path failures included). */
    private Term guarded(java.util.function.Supplier<Term> f) {
        Term r = f.get();
        if (r instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.EXIT) {
            if (t.get(1) != EAtom.BADARG) throw new AssertionError("unexpected error " + t);
            return ETuple.of(EAtom.ERROR, EAtom.BADARG);
        }
        return r;
    }

    private Term enc(Term name) {
        Term r = nif("internal_name2native", name);
        if (r instanceof ETuple t && t.arity() == 2 && t.get(0) == EAtom.EXIT) throw new Badarg();
        return r;
    }

    private static final class Badarg extends RuntimeException {
        Badarg() { super(null, null, false, false); }
    }

    private Term path1(String nifName, Term name, Term... more) {
        try {
            Term[] args = new Term[more.length + 1];
            args[0] = enc(name);
            System.arraycopy(more, 0, args, 1, more.length);
            return guarded(() -> nif(nifName, args));
        } catch (Badarg b) {
            return ETuple.of(EAtom.ERROR, EAtom.BADARG);
        }
    }

    private Term path2(String nifName, Term a, Term b) {
        try {
            Term ea = enc(a), eb = enc(b);
            return guarded(() -> nif(nifName, ea, eb));
        } catch (Badarg x) {
            return ETuple.of(EAtom.ERROR, EAtom.BADARG);
        }
    }

    private Term decode(Term raw) { return nif("internal_native2name", raw); }

    private static Term ok(Term v) { return ETuple.of(EAtom.OK, v); }

    /** Runs one operation term as prim_file_diff.escript's op/3 does. */
    Term run(ETuple op) {
        String name = ((EAtom) op.get(0)).name;
        Term x = op.arity() > 1 ? op.get(1) : null;
        Term fd = x == null ? null : fds.get(x);
        return switch (name) {
            case "open" -> {
                Term r = path1("open_nif", op.get(2), op.get(3));
                if (r instanceof ETuple t && t.get(0) == EAtom.OK) { fds.put(x, t.get(1)); yield ok(EAtom.of("fd")); }
                yield r;
            }
            case "close" -> guarded(() -> nif("close_nif", fd));
            case "read" -> {
                long n = ((ESmall) op.get(2)).value;
                // read_1 serves sizes <= 0 from the (empty) read-ahead buffer: prim_buffer:read/2.
                if (n <= 0) yield n == 0 ? ok(EBitString.EMPTY) : ETuple.of(EAtom.ERROR, EAtom.BADARG);
                yield guarded(() -> nif("read_nif", fd, op.get(2)));
            }
            case "write" -> guarded(() -> nif("write_nif", fd, iovec(op.get(2))));
            case "pread" -> guarded(() -> nif("pread_nif", fd, op.get(2), op.get(3)));
            case "pwrite" -> guarded(() -> nif("pwrite_nif", fd, op.get(2), iovec(op.get(3))));
            case "position" -> {
                Term l = op.get(2);
                ETuple ml = l instanceof ETuple t ? t : l instanceof EAtom a ? ETuple.of(a, ESmall.ZERO) : ETuple.of(EAtom.of("bof"), l);
                yield guarded(() -> nif("seek_nif", fd, ml.get(0), ml.get(1)));
            }
            case "truncate" -> guarded(() -> nif("truncate_nif", fd));
            case "sync" -> guarded(() -> nif("sync_nif", fd, ESmall.ZERO));
            case "datasync" -> guarded(() -> nif("sync_nif", fd, ESmall.ONE));
            case "allocate" -> guarded(() -> nif("allocate_nif", fd, op.get(2), op.get(3)));
            case "advise" -> guarded(() -> nif("advise_nif", fd, op.get(2), op.get(3), op.get(4)));
            case "ipread" -> guarded(() -> nif("ipread_s32bu_p32bu_nif", fd, op.get(2), op.get(3)));
            case "read_handle_info" -> info(guarded(() -> nif("read_handle_info_nif", fd)), true);
            case "read_file_info" -> info(path1("read_info_nif", x, ESmall.ONE), true);
            case "read_file_info_t" -> info(path1("read_info_nif", x, ESmall.ONE), false);
            case "read_link_info" -> info(path1("read_info_nif", x, ESmall.ZERO), true);
            case "read_file" -> path1("read_file_nif", x);
            case "list_dir" -> {
                Term r = path1("list_dir_nif", x);
                if (!(r instanceof ETuple t && t.get(0) == EAtom.OK)) yield r;
                List<String> names = new ArrayList<>();
                for (Term raw : ECons.toArray(t.get(1))) names.add(org.jbeam.bif.IoLists.charlistToString(decode(raw)));
                names.sort(null);
                List<Term> out = new ArrayList<>();
                for (String s : names) out.add(org.jbeam.bif.IoLists.stringToCharlist(s));
                yield ok(ECons.of(out));
            }
            case "make_dir" -> path1("make_dir_nif", x);
            case "del_dir" -> path1("del_dir_nif", x);
            case "delete" -> path1("del_file_nif", x);
            case "rename" -> path2("rename_nif", x, op.get(2));
            case "make_symlink" -> path2("make_soft_link_nif", x, op.get(2));
            case "make_link" -> path2("make_hard_link_nif", x, op.get(2));
            case "read_link" -> {
                Term r = path1("read_link_nif", x);
                yield r instanceof ETuple t && t.get(0) == EAtom.OK ? ok(decode(t.get(1))) : r;
            }
            case "write_file_info" -> writeFileInfo(x, op.get(2), op.get(3), op.get(4));
            case "get_cwd" -> {
                Term r = nif("get_cwd_nif");
                String cwd = org.jbeam.bif.IoLists.charlistToString(decode(((ETuple) r).get(1)));
                yield ok(cwd.startsWith(base) ? org.jbeam.bif.IoLists.stringToCharlist(cwd.substring(base.length())) : EAtom.of("nomatch"));
            }
            case "set_cwd" -> path1("set_cwd_nif", x);
            case "name2native" -> nif("internal_name2native", x);
            case "native2name" -> nif("internal_native2name", x);
            case "is_translatable" -> nif("is_translatable", x);
            case "normalize_utf8" -> nif("internal_normalize_utf8", x);
            case "buf_new" -> { bufs.put(x, nif0("prim_buffer", "new")); yield EAtom.OK; }
            case "buf" -> buf(bufs.get(x), ((EAtom) op.get(2)).name, ECons.toArray(op.get(3)));
            default -> throw new IllegalArgumentException("unknown op " + op);
        };
    }

    private final Map<Term, Term> bufs = new HashMap<>();

    private Term nif0(String module, String name, Term... args) {
        BifTable.Entry e = table.lookup(module, name, args.length);
        try {
            return Bif.invoke(e.fn(), null, args);
        } catch (ErlangException x) {
            return ETuple.of(EAtom.EXIT, x.reason);
        }
    }

    /** prim_buffer's exported functions over its natives (read/2 of small sizes is copying_read/2). */
    private Term buf(Term b, String f, Term[] args) {
        return switch (f) {
            case "read" -> nif0("prim_buffer", "copying_read", b, args[0]);
            case "wipe" -> {
                Term size = nif0("prim_buffer", "size", b);
                yield nif0("prim_buffer", "skip", b, size);
            }
            case "find_byte_index", "skip", "write" -> nif0("prim_buffer", f, b, args[0]);
            default -> nif0("prim_buffer", f, b);
        };
    }

    /** write_file_info/3 with {time, posix}: set_owner(-1, -1), set_permissions, set_time(A, M, M). */
    private Term writeFileInfo(Term name, Term mode, Term at, Term mt) {
        for (Term r : new Term[] {path1("set_owner_nif", name, ESmall.MINUS_ONE, ESmall.MINUS_ONE),
                path1("set_permissions_nif", name, mode), path1("set_time_nif", name, at, mt, mt)}) {
            if (r != EAtom.OK && !(r instanceof ETuple t && t.get(1) == EAtom.of("enotsup"))) return r;
        }
        return EAtom.OK;
    }

    /** erlang:iolist_to_iovec for the test data (a binary or a list of binaries). */
    private static Term iovec(Term d) { return d instanceof EBitString ? ECons.of(d) : d; }

    /** {ok, #file_info{}} with the run-dependent fields zeroed as the escript's mask/mask_t do. */
    private static Term info(Term r, boolean maskTimes) {
        if (!(r instanceof ETuple t) || t.arity() != 14) return r;
        Term[] e = t.toArray();
        if (maskTimes) { e[4] = ESmall.ZERO; e[5] = ESmall.ZERO; }
        e[6] = ESmall.ZERO;
        e[11] = ESmall.ZERO;
        return ok(ETuple.of(e));
    }
}
