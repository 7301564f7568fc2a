package org.jbeam.interp;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** Float register helpers: conversion (fconv) and the badarith check OTP does after float ops. */
final class Floats {
    private Floats() {}

    static double toDouble(Term t) {
        return t instanceof EFloat f ? f.value : slowToDouble(t);
    }

    private static double slowToDouble(Term t) {
        if (t instanceof ESmall s) return (double) s.value;
        if (t instanceof EBig b) {
            double d = b.value.doubleValue();
            if (Double.isInfinite(d)) throw ErlangException.badarith();
            return d;
        }
        throw ErlangException.badarith();
    }

    static double check(double d) {
        if (Math.abs(d) <= Double.MAX_VALUE) return d; // false for NaN and the infinities
        throw ErlangException.badarith();
    }
}
