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

    private static final VarHandle TAIL, NEXT, PENDING;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(Inbox.class, "tail", Node.class);
            NEXT = MethodHandles.privateLookupIn(Node.class, l).findVarHandle(Node.class, "next", Node.class);
            PENDING = l.findVarHandle(Inbox.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through TAIL
    private volatile Node tail;
    private Node head; // consumer only
    /**
     * Messages (not signals) offered and not yet moved to the mailbox, so that another process's
     * process_info(P, message_queue_len) counts what was sent to P before it asked, as in OTP.
     */
    @SuppressWarnings("unused") // accessed through PENDING
    private volatile int pending;

    Inbox() {
        Node stub = new Node(null);
        head = stub;
        tail = stub;
    }

    /** Any thread. */
    void offer(Object v) {
        // Messages are Terms (a class check; signals are records implementing an interface).
        if (v instanceof org.jbeam.term.Term) PENDING.getAndAdd(this, 1);
        Node n = new Node(v);
        Node prev = (Node) TAIL.getAndSet(this, n);
        NEXT.setRelease(prev, n);
    }

    int pendingMessages() { return Math.max(0, (int) PENDING.getVolatile(this)); }

    /** The owning process only: {@code n} messages were moved to the mailbox. */
    void taken(int n) { if (n != 0) PENDING.getAndAdd(this, -n); }

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
