package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** list_to_pid/ref/port: parse {@code <A.B.C>}, {@code #Ref<0.A.B.C>}, {@code #Port<0.N>}. */
final class TextForms {
    private TextForms() {}

    private static long[] numbers(String s, String prefix, String suffix, int count) {
        if (!s.startsWith(prefix) || !s.endsWith(suffix)) throw ErlangException.badarg();
        String[] parts = s.substring(prefix.length(), s.length() - suffix.length()).split("\\.", -1);
        if (parts.length != count) throw ErlangException.badarg();
        long[] r = new long[count];
        try {
            for (int i = 0; i < count; i++) {
                if (parts[i].isEmpty() || !parts[i].chars().allMatch(Character::isDigit)) throw ErlangException.badarg();
                r[i] = Long.parseLong(parts[i]);
            }
        } catch (NumberFormatException e) {
            throw ErlangException.badarg();
        }
        return r;
    }

    private static String text(Term t) {
        if (ECons.length(t) < 0) throw ErlangException.badarg();
        return IoLists.charlistToString(t);
    }

    static Term listToPid(ErlProcess p, Term t) {
        long[] n = numbers(text(t), "<", ">", 3);
        if (n[0] != 0 || n[1] > 0x7FFF || n[2] > 0x1FFF) throw ErlangException.badarg();
        int num = (int) (n[1] | (n[2] << 15));
        org.jbeam.runtime.ErlProcess q = p.vm.processes.byNumber(num);
        if (q != null) return q.pid;
        return new EPid(p.vm.nodeName, (int) n[1], (int) n[2], 0);
    }

    static Term listToRef(ErlProcess p, Term t) {
        long[] n = numbers(text(t), "#Ref<", ">", 4);
        if (n[0] != 0) throw ErlangException.badarg();
        return new ERef(p.vm.nodeName, 0, new int[] {(int) n[3], (int) n[2], (int) n[1]});
    }

    static Term listToPort(ErlProcess p, Term t) {
        long[] n = numbers(text(t), "#Port<", ">", 2);
        if (n[0] != 0) throw ErlangException.badarg();
        for (var port : p.vm.ports.all()) if (port.id.id == n[1]) return port.id;
        return new EPort(p.vm.nodeName, n[1], 0);
    }
}
