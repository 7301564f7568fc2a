package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;
import org.jbeam.term.ERef;

/**
 * Resource terms on the Java side. A native resource (enif_make_resource) becomes an
 * {@link ERef} (OTP prints resources as references too); the same native object always maps to
 * the same live ERef. Each such ERef holds one native reference (enif_keep_resource), released by
 * a {@link Cleaner} once the ERef is unreachable, so the destructor runs when neither Java nor
 * native code holds the resource.
 */
public final class NifResources {
    private NifResources() {}

    /** Third id word of resource refs, telling them apart from the runtime's refs. */
    static final int TAG = 0x4E4946;
    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<Long, WeakReference<ERef>> BY_PTR = new ConcurrentHashMap<>();
    private static final Map<ERef, Long> PTRS = new WeakHashMap<>();

    /** The ERef for a native resource pointer, creating (and keeping the resource) if needed. */
    static ERef term(long ptr) {
        synchronized (PTRS) {
            WeakReference<ERef> w = BY_PTR.get(ptr);
            ERef r = w == null ? null : w.get();
            if (r != null) return r;
            long n = NEXT.getAndIncrement();
            r = new ERef(EAtom.NONODE, 0, new int[] {(int) (n & 0x3FFFF), (int) (n >>> 18), TAG});
            keep(ptr);
            WeakReference<ERef> ref = new WeakReference<>(r);
            BY_PTR.put(ptr, ref);
            PTRS.put(r, ptr);
            CLEANER.register(r, () -> {
                synchronized (PTRS) { BY_PTR.remove(ptr, ref); }
                release(ptr);
            });
            return r;
        }
    }

    /** The native pointer of a resource term, or 0 when {@code r} is not one. */
    static long pointer(ERef r) {
        if (r.idCount() != 3 || r.id(2) != TAG) return 0;
        synchronized (PTRS) { Long p = PTRS.get(r); return p == null ? 0 : p; }
    }

    /** True when {@code r} stands for a live native resource. */
    public static boolean isResource(ERef r) { return pointer(r) != 0; }

    private static void keep(long ptr) {
        try { JbeamNif.RESOURCE_KEEP.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }

    private static void release(long ptr) {
        try { JbeamNif.RESOURCE_RELEASE.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }
}
