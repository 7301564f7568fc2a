package org.jbeam.term;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;

import org.jbeam.runtime.ErlangException;
import org.junit.jupiter.api.Test;

/**
 * Direct unit checks of {@link Arith} (the erl differential coverage is in ErlangNumberBifsTest):
 * normalisation, long overflow into bignums, OTP's bignum size limit and its big_to_double.
 */
class ArithTest {
    private static EInteger big(BigInteger b) { return EInteger.of(b); }

    private static void raises(EAtom reason, Runnable r) {
        ErlangException e = assertThrows(ErlangException.class, r::run);
        assertSame(reason, e.reason);
    }

    @Test
    void longOverflowBecomesBignumAndBack() {
        Term max = ESmall.of(Long.MAX_VALUE), min = ESmall.of(Long.MIN_VALUE);
        Term sum = Arith.add(max, ESmall.ONE);
        assertInstanceOf(EBig.class, sum);
        assertEquals(ESmall.of(Long.MAX_VALUE), Arith.sub(sum, ESmall.ONE));
        assertEquals(big(BigInteger.valueOf(Long.MIN_VALUE).negate()), Arith.neg(min));
        assertEquals(big(BigInteger.valueOf(Long.MIN_VALUE).negate()), Arith.intDiv(min, ESmall.MINUS_ONE));
        assertEquals(ESmall.ZERO, Arith.rem(min, ESmall.MINUS_ONE));
        assertEquals(big(BigInteger.valueOf(Long.MIN_VALUE).pow(2)), Arith.mul(min, min));
        assertInstanceOf(ESmall.class, Arith.mul(ESmall.of(1L << 31), ESmall.of(1L << 31)));
        assertEquals(ESmall.of(Long.MIN_VALUE), Arith.bsl(ESmall.of(-1), ESmall.of(63)));
        assertInstanceOf(EBig.class, Arith.bsl(ESmall.ONE, ESmall.of(63)));
    }

    @Test
    void bignumSizeLimitIsSystemLimit() {
        EInteger top = big(BigInteger.ONE.shiftLeft((int) Arith.MAX_BIG_BITS).subtract(BigInteger.ONE));
        raises(EAtom.SYSTEM_LIMIT, () -> Arith.add(top, ESmall.ONE));
        raises(EAtom.SYSTEM_LIMIT, () -> Arith.bnot(top));
        raises(EAtom.SYSTEM_LIMIT, () -> Arith.mul(top, top));
        assertEquals(ESmall.ZERO, Arith.sub(top, top));
        raises(EAtom.SYSTEM_LIMIT, () -> Arith.bsl(ESmall.of(3), ESmall.of(Arith.MAX_BIG_BITS - 1)));
    }

    @Test
    void bigToDoubleRoundsLikeOtp() {
        BigInteger x = BigInteger.ONE.shiftLeft(117).add(BigInteger.ONE.shiftLeft(64)).add(BigInteger.ONE);
        assertEquals(0x1p117, Arith.bigToDouble(x)); // OTP's Horner loses the low digit (correct rounding would not)
        assertEquals(Double.POSITIVE_INFINITY, Arith.bigToDouble(BigInteger.ONE.shiftLeft(1024)));
        raises(EAtom.BADARITH, () -> Arith.add(big(BigInteger.ONE.shiftLeft(1024)), new EFloat(0.0)));
        raises(EAtom.BADARG, () -> Arith.toFloat(big(BigInteger.ONE.shiftLeft(1024))));
    }
}
