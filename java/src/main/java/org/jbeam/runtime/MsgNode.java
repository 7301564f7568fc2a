package org.jbeam.runtime;

/**
 * One queued message or signal, linked first into the lock-free {@link Inbox} (by {@code inNext})
 * and then, if it is a message, into the private {@link Mailbox} (by {@code next}): draining moves
 * the node itself instead of copying the message into a new one, one allocation per message
 * instead of two (ADR 0028). The inbox keeps the node it took last as its stub, which reads only
 * {@code inNext}, so both links coexist.
 */
class MsgNode {
    /** Inbox link: written once by the producer that enqueued the following node. */
    volatile MsgNode inNext;
    /**
     * The message (a Term) or signal; cleared once the message is removed from the mailbox, so a
     * mailbox node with no value is a removed one (receive markers pointing at it are stale). No
     * separate flag: 24 bytes a node, as each of the two nodes was before.
     */
    Object value;
    /** Mailbox link, owning process only. */
    MsgNode next;

    MsgNode(Object value) { this.value = value; }
}
