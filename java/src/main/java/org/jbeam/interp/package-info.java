/**
 * The interpreter: executes a process's pre-decoded instructions for one reduction slice.
 *
 * <p>The Erlang stack is explicit ({@code ErlProcess.stk}: y registers and continuation pointers),
 * never the Java stack, so body recursion a million deep works and a process can be preempted at
 * any call or back-edge. x registers belong to the scheduler thread and are saved into the process
 * when it is descheduled. The dispatch loop ({@link org.jbeam.interp.Interpreter}) is a switch on
 * the opcode; larger instruction families live in their own classes (bit syntax, maps, receive,
 * exceptions) so the loop stays small enough for HotSpot to compile.
 */
package org.jbeam.interp;
