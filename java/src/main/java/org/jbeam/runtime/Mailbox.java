package org.jbeam.runtime;

import org.jbeam.term.Term;

/**
 * The private part of a process's mailbox: messages already taken from the lock-free inbox, in
 * arrival order, with the save pointer of selective receive. {@code save} is the node *before* the
 * current message, so {@code remove_message} unlinks in O(1). Receive markers remember the last node
 * at the time a reference was created, so {@code gen_server:call} skips older messages. Nodes are
 * the inbox's own ({@link MsgNode}); a removed message's value is cleared, since its node may
 * live on as the inbox's stub.
 */
public final class Mailbox {
    private final MsgNode head = new MsgNode(null);
    private MsgNode tail = head;
    private MsgNode save = head;
    private int size;

    /** Appends a message; only from the owning process's own context (signal handling). */
    public void append(Term m) { appendNode(new MsgNode(m)); }

    /** Appends a node taken from the inbox (its value is a Term). */
    void appendNode(MsgNode n) {
        tail.next = n;
        tail = n;
        size++;
    }

    /** The message at the save pointer, or null when all have been examined. */
    public Term current() {
        MsgNode n = save.next;
        return n == null ? null : (Term) n.value;
    }

    /** The sequential trace token of the current message, or null (none, or no message). */
    public org.jbeam.term.ETuple currentToken() {
        return save.next instanceof TokenNode n ? n.token : null;
    }

    /** Remove the current message and reset the save pointer (remove_message). */
    public void removeCurrent() {
        MsgNode n = save.next;
        if (n == null) return;
        save.next = n.next;
        if (tail == n) tail = save;
        n.value = null; // removed
        size--;
        save = head;
    }

    /** Step past the current message (loop_rec_end). */
    public void advance() {
        if (save.next != null) save = save.next;
    }

    /** Back to the first message (timeout, after a receive). */
    public void resetSave() { save = head; }

    public int size() { return size; }

    /** A marker at the current end of the queue. */
    public Object mark() { return tail; }

    /** Start examining after the marked position (if it is still in the queue). */
    public void useMark(Object mark) {
        MsgNode n = (MsgNode) mark;
        save = (n == null || n.value == null) ? head : n; // removed (or the head itself)
    }

    /** Removes every message matching {@code pred} (save pointer reset). */
    public void removeIf(java.util.function.Predicate<Term> pred) {
        MsgNode prev = head;
        for (MsgNode n = head.next; n != null; n = n.next) {
            if (pred.test((Term) n.value)) {
                prev.next = n.next;
                if (tail == n) tail = prev;
                n.value = null; // removed
                size--;
            } else prev = n;
        }
        save = head;
    }

    /**
     * All queued messages, oldest first. Also called from other threads (process_info): a node
     * removed meanwhile may show a cleared value, which is skipped.
     */
    public java.util.List<Term> messages() {
        java.util.ArrayList<Term> l = new java.util.ArrayList<>(size);
        for (MsgNode n = head.next; n != null; n = n.next) if (n.value instanceof Term t) l.add(t);
        return l;
    }
}
