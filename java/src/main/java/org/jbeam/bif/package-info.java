/**
 * Built-in functions, declared per Erlang module.
 *
 * <p>Each class named after an Erlang module ({@code ErlangBifs}, {@code ListsBifs}, …)
 * implements {@link org.jbeam.bif.BifModule} and declares its functions into a
 * {@link org.jbeam.bif.BifTable}: module, name, arity and the Java method — the counterpart of
 * OTP's {@code bif.tab}. The loader binds {@code bif}/{@code gc_bif} instructions and the
 * export table binds {@code call_ext} to these entries. A BIF signals failure by throwing
 * {@link org.jbeam.runtime.ErlangException} (e.g. {@code badarg}); the interpreter adds the frame
 * {@code {M, F, Args, _}} to the stack trace exactly as OTP does.
 */
package org.jbeam.bif;
