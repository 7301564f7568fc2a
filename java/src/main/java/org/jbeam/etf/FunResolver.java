package org.jbeam.etf;

import org.jbeam.term.EAtom;

/**
 * How {@link TermDecoder} connects decoded funs to the running system. The default knows no code:
 * local funs get a null {@code entry} and the function name {@code ''}, every export is accepted.
 */
public interface FunResolver {
    /** What the runtime knows about a fun table entry. */
    record FunEntry(EAtom function, Object entry) {}

    /** The entry for a NEW_FUN_EXT (module, index, uniq md5, old uniq), or null when the module is not loaded. */
    default FunEntry lookup(EAtom module, int index, int oldUniq, byte[] md5, int arity, int numFree) { return null; }

    /** Whether {@code M:F/A} exists; with the {@code safe} option a non-existing export is refused (badarg). */
    default boolean exportExists(EAtom module, EAtom function, int arity) { return true; }

    FunResolver DEFAULT = new FunResolver() {};
}
