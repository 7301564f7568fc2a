package org.jbeam.interp;

import org.jbeam.code.Instr;
import org.jbeam.runtime.ErlangException;

/**
 * The pre-OTP-25 binary construction instructions (bs_init2, bs_put_*, bs_add, bs_append …).
 * OTP 25's compiler emits bs_create_bin instead; these load (so old beams pass
 * prepare_loading) but running them is not supported yet and raises a clear error.
 */
final class LegacyBinOps {
    private LegacyBinOps() {}

    static int execute(Interpreter it, Instr in) {
        throw ErlangException.error(org.jbeam.term.ETuple.of(org.jbeam.term.EAtom.of("jbeam_unsupported_instruction"),
                org.jbeam.term.EAtom.of(org.jbeam.code.Ops.name(in.op))));
    }
}
