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
    /** The module's MD5 (16 bytes) as in NEW_FUN_EXT. */
    public final byte[] md5;
    public final Term[] freeVars;
    public final EPid pid;
    /** Runtime fun entry (code pointer), or null for a fun decoded for a module not loaded. */
    public final Object entry;

    public ELocalFun(EAtom module, EAtom function, int arity, int index, int oldUniq, byte[] md5, Term[] freeVars, EPid pid, Object entry) {
        this.module = module; this.function = function; this.arity = arity; this.index = index;
        this.oldUniq = oldUniq; this.md5 = md5; this.freeVars = freeVars; this.pid = pid; this.entry = entry;
    }

    @Override public int arity() { return arity; }
    @Override public EAtom module() { return module; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof ELocalFun f && f.module == module && f.index == index && f.oldUniq == oldUniq
                && Arrays.equals(f.md5, md5) && Arrays.equals(f.freeVars, freeVars));
    }
    @Override public int hashCode() { return (module.hashCode() * 31 + index) * 31 + oldUniq; }
}
