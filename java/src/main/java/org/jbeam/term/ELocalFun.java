package org.jbeam.term;

import java.util.Arrays;

/**
 * A closure created by {@code make_fun3} (or decoded from NEW_FUN_EXT): the defining module's fun
 * table entry plus captured free variables. {@code entry} is the runtime's fun entry (code
 * pointer); identity of a fun is module + index + uniq + free variables, as in OTP.
 */
public final class ELocalFun extends EFun {
    public final EAtom module;
    /** Generated function name, e.g. {@code '-main/0-fun-0-'}. */
    public final EAtom function;
    /** Arity when called (not counting free variables). */
    public final int arity;
    public final int index;
    public final int oldUniq;
    /** The module's MD5 (16 bytes) as in NEW_FUN_EXT: see {@link #md5()}. */
    private byte[] md5;
    /** The defining module, which computes its MD5 on first use (null for a decoded fun). */
    private final Md5Source md5Source;
    public final Term[] freeVars;
    public final EPid pid;
    /** Runtime fun entry (code pointer), or null for a fun decoded for a module not loaded. */
    public final Object entry;

    public ELocalFun(EAtom module, EAtom function, int arity, int index, int oldUniq, byte[] md5, Term[] freeVars, EPid pid, Object entry) {
        this.module = module; this.function = function; this.arity = arity; this.index = index;
        this.oldUniq = oldUniq; this.md5 = md5; this.md5Source = null; this.freeVars = freeVars; this.pid = pid; this.entry = entry;
    }

    /**
     * A fun made by running code: its new_uniq is the module's MD5, asked of the module only when
     * something looks at it (equality, external format, fun_info). Boot makes funs in modules
     * whose MD5 is never needed otherwise, and hashing them with the JDK's still-cold MD5 was 3%
     * of boot (ADR 0042).
     */
    public ELocalFun(EAtom module, EAtom function, int arity, int index, int oldUniq, Md5Source md5, Term[] freeVars, EPid pid, Object entry) {
        this.module = module; this.function = function; this.arity = arity; this.index = index;
        this.oldUniq = oldUniq; this.md5Source = md5; this.freeVars = freeVars; this.pid = pid; this.entry = entry;
    }

    /** Whatever computes a module's MD5 on demand (the runtime's loaded module). */
    public interface Md5Source { byte[] md5(); }

    /** The module's MD5 (16 bytes) as in NEW_FUN_EXT, or null when unknown. */
    public byte[] md5() {
        byte[] m = md5;
        if (m == null && md5Source != null) md5 = m = md5Source.md5(); // same value whichever thread computes it
        return m;
    }

    @Override public int arity() { return arity; }
    @Override public EAtom module() { return module; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof ELocalFun f && f.module == module && f.index == index && f.oldUniq == oldUniq
                && Arrays.equals(f.md5(), md5()) && Arrays.equals(f.freeVars, freeVars));
    }
    @Override public int hashCode() { return (module.hashCode() * 31 + index) * 31 + oldUniq; }
}
