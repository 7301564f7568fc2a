package org.jbeam.cli;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Starts a node the way erts does: the first process runs {@code erl_init:start(init, BootArgs)}
 * (OTP's own preloaded modules), which boots OTP from its boot script and then runs the
 * {@code -s}/{@code -run}/{@code -eval} of the command line.
 */
public final class Boot {
    private Boot() {}

    public static void start(Runtime vm) {
        List<Term> args = new ArrayList<>();
        for (String a : vm.args) args.add(EBitString.ofUtf8(a));
        vm.processes.spawn(null, EAtom.of("erl_init"), EAtom.of("start"), new Term[] {EAtom.of("init"), ECons.of(args)}, null);
    }
}
