package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.Term;

/**
 * Functional shapes of BIFs by arity. Arities 0–3 avoid an argument array on the hot path;
 * {@link N} takes any arity.
 */
public sealed interface Bif {
    @FunctionalInterface non-sealed interface F0 extends Bif { Term apply(ErlProcess p); }
    @FunctionalInterface non-sealed interface F1 extends Bif { Term apply(ErlProcess p, Term a); }
    @FunctionalInterface non-sealed interface F2 extends Bif { Term apply(ErlProcess p, Term a, Term b); }
    @FunctionalInterface non-sealed interface F3 extends Bif { Term apply(ErlProcess p, Term a, Term b, Term c); }
    @FunctionalInterface non-sealed interface N extends Bif { Term apply(ErlProcess p, Term[] args); }

    /** Calls {@code f} with {@code args} (length must equal the BIF's arity). */
    static Term invoke(Bif f, ErlProcess p, Term[] args) {
        return switch (f) {
            case F0 f0 -> f0.apply(p);
            case F1 f1 -> f1.apply(p, args[0]);
            case F2 f2 -> f2.apply(p, args[0], args[1]);
            case F3 f3 -> f3.apply(p, args[0], args[1], args[2]);
            case N n -> n.apply(p, args);
        };
    }
}
