package org.jbeam.bif;

import java.nio.charset.StandardCharsets;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Conversion BIFs of module {@code erlang} between atoms, lists, tuples and binaries
 * ({@code atom_to_list}, {@code list_to_binary}, {@code binary_part}, …). Registered by
 * {@link ErlangTermBifs}.
 */
public final class ErlangConvBifs {
    private ErlangConvBifs() {}
    private static final String M = ErlangTermBifs.M;

    static void registerInto(BifTable t) {
        t.bif1(M, "atom_to_list", ErlangConvBifs::atomToList);
        t.bif1(M, "list_to_atom", (p, l) -> listToAtom(l, false));
        t.bif1(M, "list_to_existing_atom", (p, l) -> listToAtom(l, true));
        t.bif1(M, "atom_to_binary", (p, a) -> atomToBinary(a, EAtom.UTF8));
        t.bif2(M, "atom_to_binary", (p, a, e) -> atomToBinary(a, e));
        t.bif1(M, "binary_to_atom", (p, b) -> binaryToAtom(b, EAtom.UTF8, false));
        t.bif2(M, "binary_to_atom", (p, b, e) -> binaryToAtom(b, e, false));
        t.bif1(M, "binary_to_existing_atom", (p, b) -> binaryToAtom(b, EAtom.UTF8, true));
        t.bif2(M, "binary_to_existing_atom", (p, b, e) -> binaryToAtom(b, e, true));
        t.bif1(M, "binary_to_list", ErlangConvBifs::binaryToList);
        t.bif3(M, "binary_to_list", ErlangConvBifs::binaryToList3);
        t.bif1(M, "bitstring_to_list", ErlangConvBifs::bitstringToList);
        t.bif1(M, "list_to_binary", (p, l) -> {
            if (!(l instanceof EList)) throw ErlangException.badarg();
            return EBitString.of(IoLists.toBytes(l, false));
        });
        t.bif1(M, "iolist_to_binary", (p, l) -> l instanceof EBitString b && b.isBinary() ? b : EBitString.of(IoLists.toBytes(l, true)));
        t.bif1(M, "iolist_size", (p, l) -> EInteger.of(IoLists.size(l)));
        t.bif1(M, "list_to_bitstring", (p, l) -> IoLists.bitstringListToBits(l));
        t.guard2(M, "binary_part", ErlangConvBifs::binaryPart2);
        t.guard3(M, "binary_part", ErlangConvBifs::binaryPart3);
        t.bif2(M, "split_binary", ErlangConvBifs::splitBinary);
    }

    // ---- atoms ----

    public static Term atomToList(ErlProcess p, Term a) {
        if (!(a instanceof EAtom atom)) throw ErlangException.badarg();
        return IoLists.stringToCharlist(atom.name);
    }

    /** list_to_atom / list_to_existing_atom: a flat list of code points, at most 255 of them. */
    public static Term listToAtom(Term l, boolean existing) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        while (l instanceof ECons c) {
            if (!(c.head instanceof ESmall s) || !IoLists.validCodePoint(s.value)) throw ErlangException.badarg();
            if (++n > EAtom.MAX_CHARS) throw ErlangException.systemLimit();
            sb.appendCodePoint((int) s.value);
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        return atom(sb.toString(), existing);
    }

    static EAtom atom(String name, boolean existing) {
        if (existing) {
            EAtom a = EAtom.existing(name);
            if (a == null) throw ErlangException.badarg();
            return a;
        }
        try {
            return EAtom.of(name);
        } catch (EAtom.AtomTableFull e) {
            throw ErlangException.systemLimit();
        }
    }

    /** Encoding argument of atom/binary conversions: true for latin1, false for utf8/unicode. */
    static boolean isLatin1Encoding(Term enc) {
        if (enc == EAtom.LATIN1) return true;
        if (enc == EAtom.UTF8 || enc == EAtom.UNICODE) return false;
        throw ErlangException.badarg();
    }

    public static Term atomToBinary(Term a, Term enc) {
        if (!(a instanceof EAtom atom)) throw ErlangException.badarg();
        if (isLatin1Encoding(enc)) {
            if (!atom.isLatin1()) throw ErlangException.badarg();
            return EBitString.of(atom.name.getBytes(StandardCharsets.ISO_8859_1));
        }
        return EBitString.of(atom.utf8().clone());
    }

    public static Term binaryToAtom(Term b, Term enc, boolean existing) {
        if (!(b instanceof EBitString bin) || !bin.isBinary()) throw ErlangException.badarg();
        boolean latin1 = isLatin1Encoding(enc);
        byte[] bytes = bin.toByteArray();
        String name;
        if (latin1) {
            if (bytes.length > EAtom.MAX_CHARS) throw ErlangException.systemLimit();
            name = new String(bytes, StandardCharsets.ISO_8859_1);
        } else {
            if (bytes.length > EAtom.MAX_CHARS * 4) throw ErlangException.systemLimit();
            name = Utf8.decodeStrict(bytes, 0, bytes.length);
            if (name == null) throw ErlangException.badarg();
            if (name.codePointCount(0, name.length()) > EAtom.MAX_CHARS) throw ErlangException.systemLimit();
        }
        return atom(name, existing);
    }

    // ---- binaries ----

    public static Term binaryToList(ErlProcess p, Term b) {
        if (!(b instanceof EBitString bin) || !bin.isBinary()) throw ErlangException.badarg();
        return IoLists.binaryToList(bin);
    }

    /** binary_to_list/3: 1-based inclusive byte range; bitstrings are fine when the range fits. */
    public static Term binaryToList3(ErlProcess p, Term b, Term start, Term stop) {
        if (!(b instanceof EBitString bin)) throw ErlangException.badarg();
        if (!(start instanceof ESmall s) || !(stop instanceof ESmall e)) throw ErlangException.badarg();
        int n = bin.byteSize();
        if (s.value < 1 || s.value > n || e.value < s.value || e.value > n) throw ErlangException.badarg();
        return IoLists.bytesToList(bin.array(), bin.arrayOffset() + (int) s.value - 1, (int) (e.value - s.value + 1), ENil.NIL);
    }

    public static Term bitstringToList(ErlProcess p, Term b) {
        if (!(b instanceof EBitString bin)) throw ErlangException.badarg();
        Term tail = ENil.NIL;
        int n = bin.byteSize();
        if (bin.extraBits() != 0) tail = new ECons(new EBitString(bin.array(), bin.arrayOffset() + n, bin.extraBits()), ENil.NIL);
        return IoLists.bytesToList(bin.array(), bin.arrayOffset(), n, tail);
    }

    public static Term binaryPart2(ErlProcess p, Term b, Term posLen) {
        if (!(posLen instanceof ETuple t) || t.arity() != 2) throw ErlangException.badarg();
        return binaryPart3(p, b, t.get(0), t.get(1));
    }

    /** binary_part/3: a sub-binary; a negative length counts backwards from the position. */
    public static Term binaryPart3(ErlProcess p, Term b, Term pos, Term len) {
        if (!(b instanceof EBitString bin) || !(pos instanceof ESmall ps) || !(len instanceof ESmall ls)) throw ErlangException.badarg();
        long start = ps.value, l = ls.value;
        if (l < 0) { start += l; l = -l; }
        if (start < 0 || start > bin.byteSize() || l > bin.byteSize() - start) throw ErlangException.badarg();
        return bin.sub((int) start, (int) l);
    }

    public static Term splitBinary(ErlProcess p, Term b, Term pos) {
        if (!(b instanceof EBitString bin) || !(pos instanceof ESmall ps)) throw ErlangException.badarg();
        if (ps.value < 0 || ps.value > bin.byteSize()) throw ErlangException.badarg();
        int k = (int) ps.value;
        return ETuple.of(bin.sub(0, k), new EBitString(bin.array(), bin.arrayOffset() + k, bin.bitSize() - (long) k * 8));
    }
}
