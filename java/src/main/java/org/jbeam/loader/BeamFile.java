package org.jbeam.loader;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import org.jbeam.etf.TermDecoder;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.EAtom;
import org.jbeam.term.Term;

/**
 * The parsed chunks of a {@code .beam} file ({@code FOR1 <size> BEAM} IFF container): atoms,
 * imports, exports, locals, funs, literals, strings, line table, attributes and the raw Code chunk.
 * Meta chunks ({@code Dbgi}, {@code Docs}, {@code ExCk}, …) are skipped.
 */
public final class BeamFile {
    public record Import(EAtom module, EAtom function, int arity) {}
    public record Export(EAtom function, int arity, int label) {}
    public record FunDef(EAtom function, int arity, int label, int index, int numFree, int oldUniq) {}

    public final byte[] raw;
    /** Atom table, 1-based as in the file (index 0 unused). */
    public EAtom[] atoms;
    public byte[] code;
    public int codeHeaderOffset;
    public int labelCount, functionCount, maxOpcode;
    public byte[] strings = new byte[0];
    public List<Import> imports = List.of();
    public List<Export> exports = List.of();
    public List<Export> locals = List.of();
    public List<FunDef> funs = List.of();
    public Term[] literals = new Term[0];
    public LineTable lines = LineTable.EMPTY;
    public byte[] attributes, compileInfo;
    public final Map<String, byte[]> chunks = new LinkedHashMap<>();

    private BeamFile(byte[] raw) { this.raw = raw; }

    public EAtom module() { return atoms[1]; }

    public static BeamFile parse(byte[] b) throws LoadError {
        if (b == null || b.length < 12) throw LoadError.badfile("file too short to be a .beam (" + (b == null ? 0 : b.length) + " bytes)");
        if (b[0] == 0x1F && (b[1] & 0xFF) == 0x8B) b = gunzip(b);
        ByteReader r = new ByteReader(b, 0, b.length, "container");
        if (r.i32() != 0x464F5231) throw LoadError.badfile("not a BEAM file: no FOR1 header");
        int size = r.i32();
        if (size < 4 || (long) size + 8 > b.length) throw LoadError.badfile("container: FOR1 size " + size + " exceeds file size " + b.length);
        if (r.i32() != 0x4245414D) throw LoadError.badfile("not a BEAM file: form type is not BEAM");
        BeamFile f = new BeamFile(b);
        int end = size + 8;
        while (r.pos + 8 <= end) {
            int at = r.pos;
            String id = new String(r.bytes(4), StandardCharsets.ISO_8859_1);
            int len = r.i32();
            if (len < 0 || r.pos + (long) len > end) throw LoadError.badfile("chunk " + id + " at offset " + at + ": size " + len + " exceeds file");
            f.chunks.put(id, java.util.Arrays.copyOfRange(b, r.pos, r.pos + len));
            r.pos += (len + 3) & ~3;
        }
        f.decodeChunks();
        return f;
    }

    private void decodeChunks() throws LoadError {
        byte[] at = chunks.get("AtU8");
        boolean utf8 = true;
        if (at == null) { at = chunks.get("Atom"); utf8 = false; }
        if (at == null) throw LoadError.badfile("no atom chunk (AtU8/Atom)");
        atoms = readAtoms(at, utf8);
        byte[] c = chunks.get("Code");
        if (c == null) throw LoadError.badfile("no Code chunk");
        readCodeHeader(c);
        if (chunks.containsKey("StrT")) strings = chunks.get("StrT");
        if (chunks.containsKey("ImpT")) imports = readImports(chunks.get("ImpT"));
        if (chunks.containsKey("ExpT")) exports = readExports(chunks.get("ExpT"), "ExpT");
        if (chunks.containsKey("LocT")) locals = readExports(chunks.get("LocT"), "LocT");
        if (chunks.containsKey("FunT")) funs = readFuns(chunks.get("FunT"));
        if (chunks.containsKey("LitT")) literals = readLiterals(chunks.get("LitT"));
        if (chunks.containsKey("Line")) lines = LineTable.read(chunks.get("Line"), this);
        attributes = chunks.get("Attr");
        compileInfo = chunks.get("CInf");
    }

    EAtom atom(int i, String where) throws LoadError {
        if (i < 1 || i >= atoms.length) throw LoadError.badfile(where + ": atom index " + i + " out of range (" + (atoms.length - 1) + " atoms)");
        return atoms[i];
    }

    private static EAtom[] readAtoms(byte[] c, boolean utf8) throws LoadError {
        String where = utf8 ? "AtU8" : "Atom";
        ByteReader r = new ByteReader(c, 0, c.length, where);
        int n = r.i32();
        boolean longForm = n < 0; // OTP 26+: negative count, compact-encoded lengths
        if (longForm) n = -n;
        if (n < 1 || n > r.remaining()) throw LoadError.badfile(where + ": bad atom count " + n);
        EAtom[] a = new EAtom[n + 1];
        for (int i = 1; i <= n; i++) {
            int len;
            if (longForm) {
                CodeReader cr = new CodeReader(c, r.pos, c.length - r.pos, where, null);
                len = (int) cr.readTaggedUnsigned();
                r.pos = cr.pos;
            } else len = r.u8();
            byte[] name = r.bytes(len);
            String s = new String(name, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            if (s.codePointCount(0, s.length()) > EAtom.MAX_CHARS) throw LoadError.badfile(where + ": atom " + i + " too long");
            a[i] = EAtom.of(s);
        }
        return a;
    }

    private void readCodeHeader(byte[] c) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, "Code");
        int hdr = r.i32();
        if (hdr < 16 || hdr + 4 > c.length) throw LoadError.badfile("Code: bad header size " + hdr);
        int format = r.i32();
        if (format != 0) throw LoadError.badfile("Code: unsupported instruction set " + format);
        maxOpcode = r.i32();
        labelCount = r.i32();
        functionCount = r.i32();
        if (labelCount < 0 || functionCount < 0) throw LoadError.badfile("Code: negative label/function count");
        if (maxOpcode > Opcodes.MAX_OPCODE) throw LoadError.badfile("Code: module needs opcode " + maxOpcode + " (newer than supported " + Opcodes.MAX_OPCODE + "); recompile");
        code = c;
        codeHeaderOffset = 4 + hdr;
    }

    private List<Import> readImports(byte[] c) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, "ImpT");
        int n = r.count("import", 12);
        List<Import> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(new Import(atom(r.i32(), "ImpT"), atom(r.i32(), "ImpT"), arity(r.i32(), "ImpT")));
        return l;
    }

    private static int arity(int a, String where) throws LoadError {
        if (a < 0 || a > 255) throw LoadError.badfile(where + ": bad arity " + a);
        return a;
    }

    private List<Export> readExports(byte[] c, String where) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, where);
        int n = r.count("export", 12);
        List<Export> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(new Export(atom(r.i32(), where), arity(r.i32(), where), label(r.i32(), where)));
        return l;
    }

    private int label(int l, String where) throws LoadError {
        if (l < 1 || l >= labelCount) throw LoadError.badfile(where + ": label " + l + " out of range");
        return l;
    }

    private List<FunDef> readFuns(byte[] c) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, "FunT");
        int n = r.count("fun", 24);
        List<FunDef> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            EAtom f = atom(r.i32(), "FunT");
            int ar = arity(r.i32(), "FunT"), lab = label(r.i32(), "FunT"), idx = r.i32(), nfree = r.i32(), uniq = r.i32();
            if (nfree < 0 || nfree > ar) throw LoadError.badfile("FunT: bad free variable count " + nfree);
            l.add(new FunDef(f, ar, lab, idx, nfree, uniq));
        }
        return l;
    }

    private static Term[] readLiterals(byte[] c) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, "LitT");
        int usize = r.i32();
        byte[] data;
        if (usize == 0) data = r.bytes(r.remaining()); // OTP 26+: stored uncompressed
        else {
            if (usize < 0 || usize > (1 << 30)) throw LoadError.badfile("LitT: bad uncompressed size " + usize);
            data = inflate(c, 4, c.length - 4, usize);
        }
        ByteReader d = new ByteReader(data, 0, data.length, "LitT");
        int n = d.count("literal", 4);
        Term[] lits = new Term[n];
        for (int i = 0; i < n; i++) {
            int sz = d.i32();
            if (sz < 1 || sz > d.remaining()) throw LoadError.badfile("LitT: literal " + i + " has bad size " + sz);
            try {
                lits[i] = TermDecoder.decode(data, d.pos, sz);
            } catch (ErlangException e) {
                throw LoadError.badfile("LitT: literal " + i + " is not a valid external term");
            }
            d.pos += sz;
        }
        return lits;
    }

    private static byte[] inflate(byte[] b, int off, int len, int usize) throws LoadError {
        Inflater inf = new Inflater();
        try {
            inf.setInput(b, off, len);
            byte[] out = new byte[usize];
            int n = 0;
            while (n < usize) {
                int k = inf.inflate(out, n, usize - n);
                if (k == 0 && (inf.finished() || inf.needsInput() || inf.needsDictionary())) break;
                n += k;
            }
            if (n != usize) throw LoadError.badfile("LitT: literal table inflates to " + n + " bytes, header says " + usize);
            return out;
        } catch (DataFormatException e) {
            throw LoadError.badfile("LitT: corrupt compressed literal table (" + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }

    private static byte[] gunzip(byte[] b) throws LoadError {
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(b))) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            in.transferTo(o);
            return o.toByteArray();
        } catch (java.io.IOException e) {
            throw LoadError.badfile("corrupt gzip-compressed beam: " + e.getMessage());
        }
    }
}
