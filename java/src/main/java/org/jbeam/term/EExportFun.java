package org.jbeam.term;

/** {@code fun Module:Function/Arity}. {@code export} caches the runtime's export entry. */
public final class EExportFun extends EFun {
    public final EAtom module, function;
    public final int arity;
    /** Runtime-owned export entry (resolved lazily); not part of the value. */
    public volatile Object export;

    public EExportFun(EAtom module, EAtom function, int arity) { this.module = module; this.function = function; this.arity = arity; }

    @Override public int arity() { return arity; }
    @Override public EAtom module() { return module; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof EExportFun f && f.module == module && f.function == function && f.arity == arity);
    }
    @Override public int hashCode() { return (module.hashCode() * 31 + function.hashCode()) * 31 + arity; }
}
