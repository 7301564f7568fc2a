package org.jbeam.term;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An interned atom. Two atoms are equal exactly when they are the same object. The table is
 * bounded like OTP's (1,048,576 atoms by default); exceeding it raises {@link AtomTableFull}.
 */
public final class EAtom extends Term {
    public static final int MAX_ATOMS = 1_048_576;
    /** Max characters in an atom's name, as OTP. */
    public static final int MAX_CHARS = 255;

    private static final ConcurrentHashMap<String, EAtom> TABLE = new ConcurrentHashMap<>(16384);
    private static final AtomicInteger COUNT = new AtomicInteger();

    public final String name;
    /** Insertion index: OTP's atom index, used for the atom cache and printing order of nothing else. */
    public final int index;
    private final byte[] utf8;
    private final boolean latin1;
    private final int hash;

    private EAtom(String name, int index) {
        this.name = name;
        this.index = index;
        this.utf8 = name.getBytes(StandardCharsets.UTF_8);
        boolean l1 = true;
        for (int i = 0; i < name.length(); i++) if (name.charAt(i) > 0xFF) { l1 = false; break; }
        this.latin1 = l1;
        this.hash = name.hashCode();
    }

    /** The atom with this name, creating it if needed. */
    public static EAtom of(String name) {
        EAtom a = TABLE.get(name);
        if (a != null) return a;
        return TABLE.computeIfAbsent(name, n -> {
            int i = COUNT.getAndIncrement();
            if (i >= MAX_ATOMS) { COUNT.decrementAndGet(); throw new AtomTableFull(); }
            return new EAtom(n, i);
        });
    }

    /** The atom with this name if it exists, otherwise null (binary_to_existing_atom). */
    public static EAtom existing(String name) { return TABLE.get(name); }

    public static int count() { return COUNT.get(); }

    public static EAtom of(boolean b) { return b ? TRUE : FALSE; }

    /** Name as UTF-8 bytes (do not modify). */
    public byte[] utf8() { return utf8; }
    /** True when every character is in Latin-1. */
    public boolean isLatin1() { return latin1; }

    @Override public int typeOrder() { return ORDER_ATOM; }
    @Override public boolean isAtom() { return true; }
    @Override public boolean equals(Object o) { return this == o; }
    @Override public int hashCode() { return hash; }

    /** Raised when the atom table is full (OTP aborts the VM; we raise a system_limit). */
    public static final class AtomTableFull extends RuntimeException {
        AtomTableFull() { super("atom table full", null, false, false); }
    }

    public static final EAtom TRUE = of("true"), FALSE = of("false"), UNDEFINED = of("undefined"),
            OK = of("ok"), ERROR = of("error"), BADARG = of("badarg"), BADARITH = of("badarith"),
            BADMATCH = of("badmatch"), FUNCTION_CLAUSE = of("function_clause"), CASE_CLAUSE = of("case_clause"),
            IF_CLAUSE = of("if_clause"), UNDEF = of("undef"), BADFUN = of("badfun"), BADARITY = of("badarity"),
            TRY_CLAUSE = of("try_clause"), SYSTEM_LIMIT = of("system_limit"), BADKEY = of("badkey"),
            BADMAP = of("badmap"), BADRECORD = of("badrecord"), NOPROC = of("noproc"), NORMAL = of("normal"),
            KILL = of("kill"), KILLED = of("killed"), EXIT = of("EXIT"), THROW = of("throw"),
            NOCATCH = of("nocatch"), INFINITY = of("infinity"), ERLANG = of("erlang"), NONODE = of("nonode@nohost"),
            EMPTY = of(""), DOWN = of("DOWN"), PROCESS = of("process"), TIMEOUT = of("timeout"),
            FILE = of("file"), LINE = of("line"), ERROR_INFO = of("error_info"), LATIN1 = of("latin1"),
            UNICODE = of("unicode"), UTF8 = of("utf8"), NONE = of("none"),
            ERL_ERTS_ERRORS = of("erl_erts_errors");
}
