package org.jbeam.bif;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** Conversions between Erlang {{Y,M,D},{H,Mi,S}} tuples, POSIX seconds and local time. */
final class Calendar {
    private Calendar() {}

    static LocalDateTime toLocalDateTime(Term dt) {
        try {
            ETuple t = (ETuple) dt, d = (ETuple) t.get(0), h = (ETuple) t.get(1);
            return LocalDateTime.of(i(d.get(0)), i(d.get(1)), i(d.get(2)), i(h.get(0)), i(h.get(1)), i(h.get(2)));
        } catch (ClassCastException | IndexOutOfBoundsException | java.time.DateTimeException e) {
            throw ErlangException.badarg();
        }
    }

    private static int i(Term t) { return (int) ((ESmall) t).value; }

    static long toPosix(Term dt) { return toLocalDateTime(dt).toEpochSecond(ZoneOffset.UTC); }

    static Term fromPosix(Term s) {
        if (!(s instanceof ESmall n)) throw ErlangException.badarg();
        return ErlangSystemBifs.dateTuple(LocalDateTime.ofEpochSecond(n.value, 0, ZoneOffset.UTC));
    }

    static Term utcToLocal(Term dt) {
        LocalDateTime u = toLocalDateTime(dt);
        return ErlangSystemBifs.dateTuple(u.atZone(ZoneOffset.UTC).withZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime());
    }

    static Term localToUtc(Term dt) {
        LocalDateTime l = toLocalDateTime(dt);
        return ErlangSystemBifs.dateTuple(l.atZone(ZoneId.systemDefault()).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }
}
