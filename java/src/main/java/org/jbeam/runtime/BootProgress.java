package org.jbeam.runtime;

import org.jbeam.interp.JitSupport;
import org.jbeam.term.EAtom;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * Notices the end of OTP's boot script: init's boot process sends {@code init ! {self(), progress,
 * started}} after the script's last step and before it runs -eval/-run/-s (init.erl,
 * eval_script/2). The bytecode tier puts compiling off until then ({@link JitSupport#booting}).
 * Only sends to the registered name {@code init} are looked at, and those are rare.
 */
final class BootProgress {
    private BootProgress() {}

    static final EAtom INIT = EAtom.of("init");
    private static final EAtom PROGRESS = EAtom.of("progress"), STARTED = EAtom.of("started");

    static void observe(Runtime vm, Term msg) {
        if (msg instanceof ETuple t && t.arity() == 3 && t.get(1) == PROGRESS && t.get(2) == STARTED) {
            org.jbeam.loader.LoadStats.mark("boot script done");
            JitSupport.booting(false);
            JitSupport.workClock(vm.scheduler::totalReductions);
            vm.code.bootFinished();
        }
    }
}
