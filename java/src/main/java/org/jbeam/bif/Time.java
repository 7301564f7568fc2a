package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** Time BIFs (monotonic/system time, units, calendar) and timers (send_after, start_timer, cancel/read). */
public final class Time {
    private Time() {}

    private static final String E = "erlang";
    private static final EAtom NATIVE = EAtom.of("native"), SECOND = EAtom.of("second"), MILLI = EAtom.of("millisecond"),
            MICRO = EAtom.of("microsecond"), NANO = EAtom.of("nanosecond"), PERF = EAtom.of("perf_counter");
    /** Native time unit: nanoseconds (erlang:convert_time_unit(1, second, native) = 1000000000). */
    static final long NATIVE_PER_SEC = 1_000_000_000L;

    static long unitsPerSecond(Term unit) {
        if (unit == NATIVE || unit == NANO || unit == PERF || unit == EAtom.of("nano_seconds")) return 1_000_000_000L;
        if (unit == SECOND || unit == EAtom.of("seconds")) return 1;
        if (unit == MILLI || unit == EAtom.of("milli_seconds")) return 1000;
        if (unit == MICRO || unit == EAtom.of("micro_seconds")) return 1_000_000;
        if (unit instanceof ESmall s && s.value > 0) return s.value;
        throw ErlangException.badarg();
    }

    /** Converts like OTP: floor division (towards minus infinity). */
    static long convert(long v, long from, long to) {
        if (from == to) return v;
        java.math.BigInteger r = java.math.BigInteger.valueOf(v).multiply(java.math.BigInteger.valueOf(to));
        java.math.BigInteger[] qr = r.divideAndRemainder(java.math.BigInteger.valueOf(from));
        java.math.BigInteger q = qr[0];
        if (qr[1].signum() < 0) q = q.subtract(java.math.BigInteger.ONE);
        return q.longValue();
    }

    public static long monotonicNative(ErlProcess p) { return monotonicNative(p.vm); }

    public static long monotonicNative(org.jbeam.runtime.Runtime vm) { return System.nanoTime() - vm.startNanos - 576460752303423488L / 64; }

    static long systemNative() {
        java.time.Instant i = java.time.Instant.now();
        return i.getEpochSecond() * NATIVE_PER_SEC + i.getNano();
    }

    static void register(BifTable t) {
        t.bif0(E, "monotonic_time", p -> ESmall.of(monotonicNative(p)));
        t.bif1(E, "monotonic_time", (p, u) -> ESmall.of(convert(monotonicNative(p), NATIVE_PER_SEC, unitsPerSecond(u))));
        t.bif0(E, "system_time", p -> ESmall.of(systemNative()));
        t.bif1(E, "system_time", (p, u) -> ESmall.of(convert(systemNative(), NATIVE_PER_SEC, unitsPerSecond(u))));
        t.bif0(E, "time_offset", p -> ESmall.of(systemNative() - monotonicNative(p)));
        t.bif1(E, "time_offset", (p, u) -> ESmall.of(convert(systemNative() - monotonicNative(p), NATIVE_PER_SEC, unitsPerSecond(u))));
        t.bif3(E, "convert_time_unit", (p, v, f, to) -> {
            if (!(v instanceof ESmall s)) throw ErlangException.badarg();
            return ESmall.of(convert(s.value, unitsPerSecond(f), unitsPerSecond(to)));
        });
        t.bif0(E, "timestamp", p -> nowTuple(systemNative() / 1000));
        t.bif0(E, "now", p -> nowTuple(uniqueNowMicros()));
        t.bif0("os", "timestamp", p -> nowTuple(systemNative() / 1000));
        t.bif0("os", "system_time", p -> ESmall.of(systemNative()));
        t.bif1("os", "system_time", (p, u) -> ESmall.of(convert(systemNative(), NATIVE_PER_SEC, unitsPerSecond(u))));
        t.bif0("os", "perf_counter", p -> ESmall.of(System.nanoTime()));
        t.bif0(E, "time", p -> { var d = ErlangSystemBifs.now(false); return ETuple.of(ESmall.of(d.getHour()), ESmall.of(d.getMinute()), ESmall.of(d.getSecond())); });
        t.bif0(E, "date", p -> { var d = ErlangSystemBifs.now(false); return ETuple.of(ESmall.of(d.getYear()), ESmall.of(d.getMonthValue()), ESmall.of(d.getDayOfMonth())); });
        t.bif0(E, "localtime", p -> ErlangSystemBifs.dateTuple(ErlangSystemBifs.now(false)));
        t.bif0(E, "universaltime", p -> ErlangSystemBifs.dateTuple(ErlangSystemBifs.now(true)));
        t.bif0(E, "unique_integer", p -> ESmall.of(p.vm.uniqueInteger() - (1L << 59)));
        t.bif1(E, "unique_integer", (p, o) -> {
            Term[] os = ECons.toArray(o);
            if (os == null) throw ErlangException.badarg();
            boolean positive = false;
            for (Term x : os) {
                if (x == EAtom.of("positive")) positive = true;
                else if (x != EAtom.of("monotonic")) throw ErlangException.badarg();
            }
            long n = p.vm.uniqueInteger();
            return ESmall.of(positive ? n : n - (1L << 59));
        });
        TimerBifs.register(t);
    }

    private static long lastNow;

    public static synchronized long uniqueNowMicros() {
        long n = systemNative() / 1000;
        if (n <= lastNow) n = lastNow + 1;
        lastNow = n;
        return n;
    }

    public static Term nowTuple(long micros) {
        return ETuple.of(ESmall.of(micros / 1_000_000_000_000L), ESmall.of((micros / 1_000_000) % 1_000_000), ESmall.of(micros % 1_000_000));
    }
}
