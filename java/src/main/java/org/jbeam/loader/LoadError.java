package org.jbeam.loader;

/** A .beam file could not be loaded; the message names what is wrong and where. */
public final class LoadError extends Exception {
    /** Short reason atom name as OTP's code server reports it (e.g. "badfile"). */
    public final String reason;

    public LoadError(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public static LoadError badfile(String message) { return new LoadError("badfile", message); }
}
