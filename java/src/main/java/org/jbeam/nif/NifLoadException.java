package org.jbeam.nif;

import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * A failed NIF library load, carrying OTP's reason: {@code {Kind, Message}} with Kind one of
 * {@code load_failed}, {@code bad_lib}, {@code load}, {@code upgrade}; erlang:load_nif/2 returns
 * {@link #errorTuple()}.
 */
public final class NifLoadException extends RuntimeException {
    public final EAtom kind;

    public NifLoadException(String kind, String message) {
        super(message);
        this.kind = EAtom.of(kind);
    }

    /** {@code {Kind, "Message"}} (the message as a list of characters, as OTP returns it). */
    public Term reason() {
        String m = getMessage();
        Term[] cs = new Term[m.length()];
        for (int i = 0; i < cs.length; i++) cs[i] = ESmall.of(m.charAt(i));
        return ETuple.of(kind, ECons.of(cs));
    }

    /** {@code {error, {Kind, "Message"}}}. */
    public Term errorTuple() { return ETuple.of(EAtom.ERROR, reason()); }
}
