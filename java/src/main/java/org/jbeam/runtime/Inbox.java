package org.jbeam.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock-free front of a mailbox: many producers (any thread sending a message or signal), one
 * consumer (the process itself). A Vyukov-style linked MPSC queue: producers swap the tail and
 * link the old tail to their node; the consumer walks from a stub head. An empty inbox costs two
 * small objects, so a million idle processes stay cheap (JCTools' padded array queues cost about
 * 1 KB each; see docs/adr/0003-scheduler.md).
 *
 * <p>A producer links its node after swapping the tail, so for an instant the consumer may not
 * see it; the sender wakes the process only after {@link #offer} returns, so the process either
 * sees the message or is woken again.
 */
final class Inbox {
    private static final class Node {
        volatile Node next;
        Object value;
        Node(Object v) { value = v; }
    }

    private static final VarHandle TAIL, NEXT;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(Inbox.class, "tail", Node.class);
            NEXT = MethodHandles.privateLookupIn(Node.class, l).findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through TAIL
    private volatile Node tail;
    private Node head; // consumer only

    Inbox() {
        Node stub = new Node(null);
        head = stub;
        tail = stub;
    }

    /** Any thread. */
    void offer(Object v) {
        Node n = new Node(v);
        Node prev = (Node) TAIL.getAndSet(this, n);
        NEXT.setRelease(prev, n);
    }

    /** The owning process only; null when empty. */
    Object poll() {
        Node next = (Node) NEXT.getAcquire(head);
        if (next == null) return null;
        Object v = next.value;
        next.value = null;
        head = next;
        return v;
    }
}
