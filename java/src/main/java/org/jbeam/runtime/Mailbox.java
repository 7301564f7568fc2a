package org.jbeam.runtime;

import org.jbeam.term.Term;

/**
 * The private part of a process's mailbox: messages already taken from the lock-free inbox, in
 * arrival order, with the save pointer of selective receive. {@code save} is the node *before* the
 * current message, so {@code remove_message} unlinks in O(1). Receive markers remember the last node
 * at the time a reference was created, so {@code gen_server:call} skips older messages.
 */
public final class Mailbox {
    static final class Node {
        final Term msg;
        Node next;
        boolean removed;
        Node(Term m) { msg = m; }
    }

    private final Node head = new Node(null);
    private Node tail = head;
    private Node save = head;
    private int size;

    /** Appends a message; only from the owning process's own context (signal handling). */
    public void append(Term m) {
        Node n = new Node(m);
        tail.next = n;
        tail = n;
        size++;
    }

    /** The message at the save pointer, or null when all have been examined. */
    public Term current() {
        Node n = save.next;
        return n == null ? null : n.msg;
    }

    /** Remove the current message and reset the save pointer (remove_message). */
    public void removeCurrent() {
        Node n = save.next;
        if (n == null) return;
        save.next = n.next;
        if (tail == n) tail = save;
        n.removed = true;
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
        Node n = (Node) mark;
        save = (n == null || n.removed) ? head : n;
    }

    /** Removes every message matching {@code pred} (save pointer reset). */
    public void removeIf(java.util.function.Predicate<Term> pred) {
        Node prev = head;
        for (Node n = head.next; n != null; n = n.next) {
            if (pred.test(n.msg)) {
                prev.next = n.next;
                if (tail == n) tail = prev;
                n.removed = true;
                size--;
            } else prev = n;
        }
        save = head;
    }

    /** All queued messages, oldest first. */
    public java.util.List<Term> messages() {
        java.util.ArrayList<Term> l = new java.util.ArrayList<>(size);
        for (Node n = head.next; n != null; n = n.next) l.add(n.msg);
        return l;
    }
}
