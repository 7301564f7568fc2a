package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;
import org.jbeam.term.ERef;

/**
 * Resource terms on the Java side. A native resource (enif_make_resource) becomes a
 * {@link Res}, an {@link ERef} holding the resource's pointer (OTP prints resources as
 * references too); the same native object always maps to the same live Res. Each Res holds one
 * native reference, released once the Res is unreachable, so the destructor runs when neither
 * Java nor native code holds the resource.
 *
 * <p>Cheap to make and to drop (ADR 0048): a new resource term is one Res and one {@link Cell}
 * (a weak reference on {@link #QUEUE}) stored in a slot array under one lock; the slot's number
 * is kept in the native resource ({@code jb_resource.java_id}), so a resource returned again
 * finds its live Res without a search. The thread {@code jbeam-nif-release} drains the queue and
 * releases the native references of the Res the collector found unreachable, in batches, off the
 * schedulers. (Before: a ConcurrentHashMap entry, a weak reference and a {@code Cleaner}
 * registration per resource; the map's put alone was ~13% of crypto:hash's scheduler time.)
 *
 * <p>A resource term crosses back as its pointer straight from the Res. An ERef equal to a Res
 * but not the same object (one that left by value: term_to_binary, ref_to_list) is found by its
 * id in {@link #COPIED}, which holds only the resources {@link Res#copiedOut() copied out}.
 */
public final class NifResources {
    private NifResources() {}

    /** Third id word of resource refs, telling them apart from the runtime's refs. */
    static final int TAG = 0x4E4946;
    /** offsetof(jb_resource, java_id) (nif_internal.h): here, 1 + the resource's slot. */
    private static final long JAVA_ID = 32;
    /** offsetof(jb_resource, size) and sizeof(jb_resource) (nif_internal.h): the native bytes a Java reference keeps. */
    private static final long SIZE = 16, HEADER = 48;

    /** A resource term: the reference, and the native resource it holds a reference to. */
    static final class Res extends ERef {
        final long ptr;
        Cell cell;

        private Res(long n, long ptr) {
            super(EAtom.NONODE, 0, new int[] {(int) (n & 0x3FFFF), (int) (n >>> 18), TAG});
            this.ptr = ptr;
        }

        /** Left by value: an equal ERef may come back, so the id table must know it. */
        @Override public void copiedOut() {
            Cell c = cell;
            if (c.copied) return;
            c.copied = true;
            COPIED.put(c.n, c);
        }
    }

    /** What releasing a Res's native reference needs, once the Res is gone. */
    private static final class Cell extends WeakReference<Res> {
        final long ptr, bytes, n;
        final int slot;
        final NifReaper.Holder holder;
        volatile boolean copied;

        Cell(Res r, long ptr, long bytes, long n, int slot, NifReaper.Holder holder) {
            super(r, QUEUE);
            this.ptr = ptr; this.bytes = bytes; this.n = n; this.slot = slot; this.holder = holder;
        }
    }

    private static final ReferenceQueue<Res> QUEUE = new ReferenceQueue<>();
    private static final ConcurrentHashMap<Long, Cell> COPIED = new ConcurrentHashMap<>();
    private static final Object LOCK = new Object();
    /** Live cells by slot; free slots are stacked in {@code free}. Guarded by LOCK. */
    private static Cell[] slots = new Cell[256];
    private static int[] free = new int[256];
    private static int nfree, used;
    private static long next = 1;

    static {
        Thread.ofPlatform().daemon().name("jbeam-nif-release").start(NifResources::releaseLoop);
    }

    /**
     * The ERef for a native resource pointer, creating it if needed. {@code adopted}: the caller
     * hands over one native reference (a NIF result, see nif_codec.c finish), which a new ERef
     * keeps and an existing one gives back; otherwise a new ERef takes a reference of its own.
     */
    static ERef term(long ptr, boolean adopted) { return term(ptr, adopted, null); }

    /** As {@link #term(long, boolean)}; a new ERef is counted against {@code holder} (NifReaper). */
    static ERef term(long ptr, boolean adopted, NifReaper.Holder holder) {
        // read in place (NifCodec.ALL): no restricted reinterpret per resource (ADR 0026)
        MemorySegment all = NifCodec.ALL;
        long bytes = HEADER + all.get(ValueLayout.JAVA_LONG, ptr + SIZE);
        Res r;
        synchronized (LOCK) {
            long sid = all.get(ValueLayout.JAVA_LONG, ptr + JAVA_ID);
            if (sid > 0 && sid <= used) {
                Cell c = slots[(int) sid - 1];
                Res live = c != null && c.ptr == ptr ? c.get() : null;
                if (live != null) {
                    if (adopted) release(ptr);    // the Res's own reference keeps it above zero
                    return live;
                }
            }
            int s = nfree > 0 ? free[--nfree] : used++;
            if (s == slots.length) slots = Arrays.copyOf(slots, s * 2);
            long n = next++;
            r = new Res(n, ptr);
            Cell c = new Cell(r, ptr, bytes, n, s, holder);
            r.cell = c;
            slots[s] = c;
            all.set(ValueLayout.JAVA_LONG, ptr + JAVA_ID, s + 1L);
            if (!adopted) keep(ptr);
        }
        NifReaper.held(holder, bytes);
        return r;
    }

    /**
     * The native pointer of the live resource {@code r} stands for (itself, or the Res it is
     * equal to), or 0 when it is no resource. The live Res goes into {@code pins}, which the
     * caller keeps until native code has taken its own reference (its reference cannot be
     * released before).
     */
    static long pointer(ERef r, java.util.List<Object> pins) {
        Res live;
        if (r instanceof Res res) live = res;
        else {
            if (r.idCount() != 3 || r.id(2) != TAG || COPIED.isEmpty()) return 0;
            Cell c = COPIED.get(((long) r.id(1) << 18) | (r.id(0) & 0x3FFFFL));
            live = c == null ? null : c.get();
            if (live == null) return 0;
        }
        if (pins != null) pins.add(live);
        return live.ptr;
    }

    /** True when {@code r} stands for a live native resource. */
    public static boolean isResource(ERef r) { return pointer(r, null) != 0; }

    /** Releases the native references of unreachable Res, a queue's worth at a time. */
    private static void releaseLoop() {
        Cell[] batch = new Cell[64];
        while (true) {
            int n = 0;
            try {
                batch[n++] = (Cell) QUEUE.remove();
            } catch (InterruptedException e) {
                continue;
            }
            for (Cell c; n < batch.length && (c = (Cell) QUEUE.poll()) != null; ) batch[n++] = c;
            synchronized (LOCK) {
                for (int i = 0; i < n; i++) {
                    Cell c = batch[i];
                    if (slots[c.slot] == c) {
                        slots[c.slot] = null;
                        if (nfree == free.length) free = Arrays.copyOf(free, nfree * 2);
                        free[nfree++] = c.slot;
                    }
                }
            }
            // outside the lock: a destructor may call back into the VM
            for (int i = 0; i < n; i++) {
                Cell c = batch[i];
                batch[i] = null;
                if (c.copied) COPIED.remove(c.n, c);
                NifReaper.dropped(c.holder, c.bytes);
                try {
                    release(c.ptr);
                } catch (Throwable e) {   // keep releasing the others
                    e.printStackTrace();
                }
            }
        }
    }

    private static void keep(long ptr) {
        try { JbeamNif.RESOURCE_KEEP.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }

    private static void release(long ptr) {
        try { JbeamNif.RESOURCE_RELEASE.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }
}
