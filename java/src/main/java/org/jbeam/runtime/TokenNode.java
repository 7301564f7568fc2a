package org.jbeam.runtime;

import org.jbeam.term.ETuple;

/**
 * A message that carries a sequential trace token (ADR 0070): a node of its own class, so a
 * message without one costs nothing more (no field in every node).
 */
final class TokenNode extends MsgNode {
    final ETuple token;

    TokenNode(Object value, ETuple token) {
        super(value);
        this.token = token;
    }
}
