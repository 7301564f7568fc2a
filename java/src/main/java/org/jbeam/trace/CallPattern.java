package org.jbeam.trace;

import org.jbeam.ets.MatchSpec;
import org.jbeam.term.Term;

/**
 * A function's call-trace pattern (erlang:trace_pattern/3), kept on its export entry. {@code spec}
 * is null for {@code true} (every call, no actions); {@code specTerm} is what trace_info reports
 * ({@code []} for true).
 */
public record CallPattern(MatchSpec spec, Term specTerm, boolean local) {}
