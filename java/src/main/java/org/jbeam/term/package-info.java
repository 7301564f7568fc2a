/**
 * Erlang terms as immutable Java objects.
 *
 * <p>Every term is a subclass of {@link org.jbeam.term.Term}. Terms are never mutated after
 * construction, so a send between processes enqueues the very same object (no copying, no
 * per-process heaps: the JVM's GC reclaims). Integers that fit a {@code long} are
 * {@link org.jbeam.term.ESmall}; larger ones are {@link org.jbeam.term.EBig} (always normalised:
 * an EBig never holds a value that fits a long). Atoms are interned, so identity comparison is
 * equality. {@link org.jbeam.term.TermOrder} implements OTP's total term order and both
 * equalities ({@code ==} and {@code =:=}); {@link Object#equals} is exact equality.
 */
package org.jbeam.term;
