/**
 * Loaded code: pre-decoded instructions ({@link org.jbeam.code.Instr}), modules
 * ({@link org.jbeam.code.BeamModule}), the global export table through which every external call
 * goes (so hot loading re-points callers), fun entries, and the module table with current and
 * old versions.
 */
package org.jbeam.code;
