package org.jbeam.term;

/** A fun: a local closure ({@link ELocalFun}) or an export ({@link EExportFun}, {@code fun M:F/A}). */
public abstract sealed class EFun extends Term permits ELocalFun, EExportFun {
    /** Number of arguments the fun takes when called. */
    public abstract int arity();
    public abstract EAtom module();
    @Override public final int typeOrder() { return ORDER_FUN; }
    @Override public final boolean isFun() { return true; }
}
