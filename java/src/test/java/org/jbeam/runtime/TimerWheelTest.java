package org.jbeam.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The timer wheel's thread sleeps until the next pending timer: a process waiting in
 * {@code receive ... after} between messages leaves one cancelled timer per message, each in a
 * bucket of its own, and the thread must not wake for them (ADR 0057), while pending timers in
 * the same buckets still fire, in order.
 */
class TimerWheelTest {

    @Test
    void cancelledTimersDoNotWakeTheThread() throws Exception {
        TimerWheel wheel = new TimerWheel("timer-wheel-test");
        try {
            AtomicInteger fired = new AtomicInteger();
            // 100 receive-after timers 1 ms apart (50..149 ms), taken into their buckets while
            // pending: a timer due at once, started after them, has fired only once the thread has
            // drained every start before it.
            List<TimerWheel.Timer> timers = new ArrayList<>();
            for (int i = 0; i < 100; i++) timers.add(wheel.schedule(50 + i, fired::incrementAndGet));
            CountDownLatch drained = new CountDownLatch(1);
            wheel.schedule(0, drained::countDown);
            assertTrue(drained.await(5, TimeUnit.SECONDS));
            for (TimerWheel.Timer t : timers) assertTrue(t.cancel());
            long w0 = wheel.wakeups;
            Thread.sleep(300);
            assertEquals(0, fired.get(), "no cancelled timer fired");
            // It wakes at most for the bucket it chose while the first timer was pending; waking
            // for each cancelled timer's bucket was 100 wake-ups.
            long w = wheel.wakeups - w0;
            assertTrue(w <= 5, "wake-ups: " + w);
            CountDownLatch last = new CountDownLatch(1);
            wheel.schedule(10, last::countDown);
            assertTrue(last.await(5, TimeUnit.SECONDS), "a timer started afterwards fires");
        } finally {
            wheel.stop();
        }
    }

    @Test
    void pendingTimersAmongCancelledOnesFireInOrder() throws Exception {
        TimerWheel wheel = new TimerWheel("timer-wheel-test");
        try {
            List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(10);
            List<TimerWheel.Timer> cancelled = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = i;
                for (int k = 0; k < 5; k++) cancelled.add(wheel.schedule(10 + 3 * i, () -> order.add(-1)));
                wheel.schedule(10 + 3 * i, () -> { order.add(n); done.countDown(); });
                for (int k = 0; k < 5; k++) cancelled.add(wheel.schedule(10 + 3 * i, () -> order.add(-1)));
            }
            for (TimerWheel.Timer t : cancelled) assertTrue(t.cancel());
            assertTrue(done.await(5, TimeUnit.SECONDS), "every pending timer fired");
            Thread.sleep(50);
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), order);
        } finally {
            wheel.stop();
        }
    }
}
