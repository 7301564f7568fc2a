package org.jbeam.loader;

import java.nio.charset.StandardCharsets;

/**
 * The Line chunk: location index → (file, line). Index 0 means "no location". File index 0 is
 * implicit: the module's own {@code BeamModule.erl}; the chunk lists the others.
 */
public final class LineTable {
    public static final LineTable EMPTY = new LineTable(new int[1], new int[1], new String[] {""});

    private final int[] fileOf;
    private final int[] lineOf;
    private final String[] files;

    private LineTable(int[] fileOf, int[] lineOf, String[] files) { this.fileOf = fileOf; this.lineOf = lineOf; this.files = files; }

    public int size() { return lineOf.length; }
    /** Line number of location {@code i}, or 0 for none. */
    public int line(int i) { return i > 0 && i < lineOf.length ? lineOf[i] : 0; }
    /** File of location {@code i}; null means the module's own source file. */
    public String file(int i) { return i > 0 && i < fileOf.length && fileOf[i] > 0 ? files[fileOf[i]] : null; }

    static LineTable read(byte[] c, BeamFile f) throws LoadError {
        ByteReader r = new ByteReader(c, 0, c.length, "Line");
        int ver = r.i32();
        if (ver != 0) return EMPTY; // unknown future versions: ignore line info, as erts does
        r.i32(); // flags
        r.i32(); // number of line instructions
        int nItems = r.count("line item", 1);
        int nFiles = r.count("file name", 2);
        int[] fileOf = new int[nItems + 1], lineOf = new int[nItems + 1];
        CodeReader cr = new CodeReader(c, r.pos, c.length - r.pos, "Line", null);
        int fileIndex = 0;
        for (int i = 1; i <= nItems; ) {
            int tag = cr.peekTag();
            long v = cr.readTaggedUnsignedAnyTag();
            if (tag == CodeReader.TAG_A) {
                if (v < 0 || v > nFiles) throw LoadError.badfile("Line: file index " + v + " out of range");
                fileIndex = (int) v;
            } else if (tag == CodeReader.TAG_I) {
                if (v < 0 || v > Integer.MAX_VALUE) throw LoadError.badfile("Line: bad line number " + v);
                fileOf[i] = fileIndex; lineOf[i] = (int) v; i++;
            } else throw LoadError.badfile("Line: unexpected tag " + tag + " in line items");
        }
        r.pos = cr.pos;
        String[] files = new String[nFiles + 1];
        files[0] = null;
        for (int i = 1; i <= nFiles; i++) files[i] = new String(r.bytes(r.u16()), StandardCharsets.UTF_8);
        return new LineTable(fileOf, lineOf, files);
    }
}
