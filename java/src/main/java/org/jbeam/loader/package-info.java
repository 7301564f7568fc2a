/**
 * The {@code .beam} loader: container and chunks ({@link org.jbeam.loader.BeamFile}), the compact
 * term encoding of the Code chunk ({@link org.jbeam.loader.CodeReader}), the opcode table
 * ({@link org.jbeam.loader.Opcodes}, derived from OTP's genop.tab), and the transformation into the
 * interpreter's pre-decoded form ({@link org.jbeam.loader.Transformer}). Malformed input always
 * ends in a {@link org.jbeam.loader.LoadError} naming the chunk and offset.
 */
package org.jbeam.loader;
