package org.jbeam.file;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.Normalizer;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * File names between Erlang and the OS: prim_file's name BIFs (internal_name2native/1,
 * internal_native2name/1, is_translatable/1, internal_normalize_utf8/1) in the utf8 file name
 * mode, the NIF-side marshalling of encoded paths ({@code <<Bytes, 0>>}) to java.nio paths, and
 * the emulator's current working directory (a JVM-side variable; relative paths resolve against it).
 */
public final class FileNames {
    private FileNames() {}

    private static volatile Path cwd = Path.of("").toAbsolutePath().normalize();
    /** The charset the JDK uses for file names (sun.jnu.encoding). */
    private static final Charset JNU = jnu();

    private static Charset jnu() {
        try { return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")); }
        catch (RuntimeException e) { return StandardCharsets.UTF_8; }
    }

    /** The current working directory (absolute, symlinks resolved once set through set_cwd). */
    public static Path cwd() { return cwd; }

    /** chdir(2): the directory must exist and be searchable. */
    public static void setCwd(Path dir) throws java.io.IOException {
        var attrs = Files.readAttributes(dir, java.nio.file.attribute.BasicFileAttributes.class);
        if (!attrs.isDirectory()) throw Posix.error(Posix.ENOTDIR);
        if (!Files.isExecutable(dir)) throw Posix.error(Posix.EACCES);
        cwd = dir.toRealPath();
    }

    // ---- NIF-side path marshalling (efile_marshal_path) ----

    /**
     * The path a NIF argument names: a binary ending in one or more NULs, with no NUL before them;
     * anything else is einval. Relative paths resolve against {@link #cwd()}.
     */
    public static Path path(Term t) {
        byte[] raw = rawPath(t);
        if (raw.length == 0) throw Posix.error(Posix.ENOENT);
        Path p;
        try {
            p = cwd.resolve(string(raw));
        } catch (InvalidPathException e) {
            throw Posix.error(Posix.EINVAL);
        }
        // "file/" names a directory: POSIX calls fail with ENOTDIR on a non-directory.
        if (raw.length > 1 && raw[raw.length - 1] == '/' && Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p))
            throw Posix.error(Posix.ENOTDIR);
        return p;
    }

    /** Raw name bytes as the JDK's file name string; names the JDK cannot represent are einval. */
    public static String string(byte[] raw) {
        try {
            return JNU.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException e) {
            throw Posix.error(Posix.EINVAL);
        }
    }

    /** The bytes of an encoded path before its terminating NULs. */
    public static byte[] rawPath(Term t) {
        if (!(t instanceof EBitString b) || !b.isBinaryAligned()) throw Posix.error(Posix.EINVAL);
        byte[] bytes = b.toByteArray();
        int nul = 0;
        while (nul < bytes.length && bytes[nul] != 0) nul++;
        if (nul == bytes.length) throw Posix.error(Posix.EINVAL);
        for (int i = nul; i < bytes.length; i++) if (bytes[i] != 0) throw Posix.error(Posix.EINVAL);
        return java.util.Arrays.copyOf(bytes, nul);
    }

    /** A JDK path (or name) as the raw bytes the OS holds, as a binary. */
    public static EBitString bytes(Path p) { return EBitString.of(p.toString().getBytes(JNU)); }

    // ---- prim_file name BIFs ----

    /** internal_name2native/1: a binary (its whole bytes) or a deep list of code points → UTF-8 + NUL. */
    public static Term name2native(Term name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (name instanceof EBitString b) {
            int n = b.byteSize();
            for (int i = 0; i < n; i++) {
                int c = b.byteAt(i);
                if (c == 0) throw ErlangException.badarg();
                out.write(c);
            }
        } else if (name instanceof EList) {
            encodeChars(name, out, 0);
        } else {
            throw ErlangException.badarg();
        }
        out.write(0);
        return EBitString.of(out.toByteArray());
    }

    private static void encodeChars(Term l, ByteArrayOutputStream out, int depth) {
        if (depth > 10_000) throw ErlangException.badarg();
        while (l instanceof ECons c) {
            if (c.head instanceof ESmall s) {
                long cp = s.value;
                if (cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) throw ErlangException.badarg();
                out.writeBytes(new String(Character.toChars((int) cp)).getBytes(StandardCharsets.UTF_8));
            } else if (c.head instanceof EList) {
                encodeChars(c.head, out, depth + 1);
            } else {
                throw ErlangException.badarg();
            }
            l = c.tail;
        }
        if (!(l instanceof ENil)) throw ErlangException.badarg();
    }

    /** internal_native2name/1: UTF-8 bytes → code point list, or {error, warning} (OTP's default +fnuw). */
    public static Term native2name(Term bin) {
        String s = utf8(binary(bin));
        return s == null ? ETuple.of(EAtom.ERROR, EAtom.of("warning")) : chars(s);
    }

    /** is_translatable/1: whether a binary name is valid UTF-8. */
    public static Term isTranslatable(Term bin) { return EAtom.of(utf8(binary(bin)) != null); }

    /** internal_normalize_utf8/1: NFC-normalised code point list of a UTF-8 binary. */
    public static Term normalizeUtf8(Term bin) {
        String s = utf8(binary(bin));
        if (s == null) throw ErlangException.badarg();
        return chars(Normalizer.normalize(s, Normalizer.Form.NFC));
    }

    private static byte[] binary(Term t) {
        if (!(t instanceof EBitString b) || !b.isBinaryAligned()) throw ErlangException.badarg();
        return b.toByteArray();
    }

    private static String utf8(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static Term chars(String s) {
        int[] cps = s.codePoints().toArray();
        Term l = ENil.NIL;
        for (int i = cps.length - 1; i >= 0; i--) l = new ECons(ESmall.of(cps[i]), l);
        return l;
    }
}
