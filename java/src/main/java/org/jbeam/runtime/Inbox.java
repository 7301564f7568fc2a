package org.jbeam.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jbeam.term.Term;

/**
 * The lock-free front of a mailbox: many producers (any thread sending a message or signal), one
 * consumer (the process itself). A Vyukov-style linked MPSC queue: producers swap the tail and
 * link the old tail to their node; the consumer walks from a stub head. An empty inbox costs two
 * small objects, so a million idle processes stay cheap (JCTools' padded array queues cost about
 * 1 KB each; see docs/adr/0003-scheduler.md). Its nodes move on into the {@link Mailbox}
 * ({@link MsgNode}).
 *
 * <p>A producer links its node after swapping the tail, so for an instant the consumer may not
 * see it; the sender wakes the process only after {@link #offer} returns, so the process either
 * sees the message or is woken again.
 */
final class Inbox {
    private static final VarHandle TAIL, NEXT, PENDING;
    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(Inbox.class, "tail", MsgNode.class);
            NEXT = l.findVarHandle(MsgNode.class, "inNext", MsgNode.class);
            PENDING = l.findVarHandle(Inbox.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through TAIL
    private volatile MsgNode tail;
    private MsgNode head; // consumer only
    /**
     * Messages (not signals) offered and not yet moved to the mailbox, so that another process's
     * process_info(P, message_queue_len) counts what was sent to P before it asked, as in OTP.
     */
    @SuppressWarnings("unused") // accessed through PENDING
    private volatile int pending;

    Inbox() {
        MsgNode stub = new MsgNode(null);
        head = stub;
        tail = stub;
    }

    /** Any thread. */
    void offer(Object v) {
        // Messages are Terms (a class check; signals are records implementing an interface). A
        // 'DOWN' counts as a message already: erts would show it queued (see pendingMessagesInto).
        if (v instanceof Term || Signals.Down.class.isInstance(v)) PENDING.getAndAdd(this, 1);
        offerNode(new MsgNode(v));
    }

    /** Any thread: a message with a sequential trace token. */
    void offer(Term m, org.jbeam.term.ETuple token) {
        PENDING.getAndAdd(this, 1);
        offerNode(new TokenNode(m, token));
    }

    private void offerNode(MsgNode n) {
        MsgNode prev = (MsgNode) TAIL.getAndSet(this, n);
        NEXT.setRelease(prev, n);
    }

    int pendingMessages() { return Math.max(0, (int) PENDING.getVolatile(this)); }

    /**
     * Any thread: appends the messages still in the inbox, oldest first, for another process's
     * process_info(P, messages). Exact while the owner is not running (waiting or suspended);
     * while it runs, a message it is moving to the mailbox may be missed or seen twice. The
     * caller reads the owner's status first: its volatile write when it last stopped running
     * makes the owner's {@code head} visible here. A signal that will become a message when the
     * owner handles it (a 'DOWN', an exit signal it traps) is added as that message, which
     * {@code asMessage} gives (null for other signals): erts handles the signals sent before a process_info request
     * first, so they show as queued messages there even while the owner runs.
     */
    void pendingMessagesInto(java.util.List<org.jbeam.term.Term> out,
                             java.util.function.Function<Object, org.jbeam.term.Term> asMessage) {
        for (MsgNode n = (MsgNode) NEXT.getAcquire(head); n != null; n = (MsgNode) NEXT.getAcquire(n)) {
            Object v = n.value;
            if (v instanceof org.jbeam.term.Term t) out.add(t);
            else if (v != null && asMessage.apply(v) instanceof org.jbeam.term.Term t) out.add(t);
        }
    }

    /** Any thread: how many signals still in the inbox {@code asMessage} turns into messages. */
    int pendingSignalMessages(java.util.function.Function<Object, org.jbeam.term.Term> asMessage) {
        int count = 0;
        for (MsgNode n = (MsgNode) NEXT.getAcquire(head); n != null; n = (MsgNode) NEXT.getAcquire(n)) {
            Object v = n.value;
            if (v != null && !(v instanceof org.jbeam.term.Term) && asMessage.apply(v) != null) count++;
        }
        return count;
    }

    /** The owning process only: {@code n} messages were moved to the mailbox. */
    void taken(int n) { if (n != 0) PENDING.getAndAdd(this, -n); }

    /**
     * The owning process only; the next node, or null when empty. The node stays this inbox's stub
     * until the next one is taken; the caller may link it into the mailbox.
     */
    MsgNode pollNode() {
        MsgNode next = (MsgNode) NEXT.getAcquire(head);
        if (next == null) return null;
        head = next;
        return next;
    }

    /** The owning process only; the next value (taken out of its node), or null when empty. */
    Object poll() {
        MsgNode n = pollNode();
        if (n == null) return null;
        Object v = n.value;
        n.value = null;
        return v;
    }
}
