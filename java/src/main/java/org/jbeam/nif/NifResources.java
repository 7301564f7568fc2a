package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;
import org.jbeam.term.ERef;

/**
 * Resource terms on the Java side. A native resource (enif_make_resource) becomes an
 * {@link ERef} (OTP prints resources as references too); the same native object always maps to
 * the same live ERef. Each such ERef holds one native reference, released by a {@link Cleaner}
 * once the ERef is unreachable, so the destructor runs when neither Java nor native code holds
 * the resource.
 *
 * <p>The ERef's id lives in the native resource itself ({@code jb_resource.java_id}), so turning
 * a returned resource into its term needs no search by pointer; the one table, by id, is what
 * lets an ERef (or a term equal to it) cross back as its pointer.
 */
public final class NifResources {
    private NifResources() {}

    /** Third id word of resource refs, telling them apart from the runtime's refs. */
    static final int TAG = 0x4E4946;
    /** offsetof(jb_resource, java_id) (nif_internal.h). */
    private static final long JAVA_ID = 32;
    /** offsetof(jb_resource, size) and sizeof(jb_resource) (nif_internal.h): the native bytes a Java reference keeps. */
    private static final long SIZE = 16, HEADER = 48;
    private static final Cleaner CLEANER = Cleaner.create();
    private static final Object LOCK = new Object();
    private static long next = 1;

    private record Entry(long ptr, WeakReference<ERef> ref) {}

    private static final ConcurrentHashMap<Long, Entry> BY_ID = new ConcurrentHashMap<>();

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
        synchronized (LOCK) {
            long id = all.get(ValueLayout.JAVA_LONG, ptr + JAVA_ID);
            if (id != 0) {
                Entry e = BY_ID.get(id);
                ERef r = e == null ? null : e.ref.get();
                if (r != null) {
                    if (adopted) release(ptr);
                    return r;
                }
            }
            long n = next++;
            all.set(ValueLayout.JAVA_LONG, ptr + JAVA_ID, n);
            ERef r = new ERef(EAtom.NONODE, 0, new int[] {(int) (n & 0x3FFFF), (int) (n >>> 18), TAG});
            if (!adopted) keep(ptr);
            Entry e = new Entry(ptr, new WeakReference<>(r));
            BY_ID.put(n, e);
            long bytes = HEADER + all.get(ValueLayout.JAVA_LONG, ptr + SIZE);
            CLEANER.register(r, () -> {
                BY_ID.remove(n, e);
                NifReaper.dropped(holder, bytes);
                release(ptr);
            });
            NifReaper.held(holder, bytes);
            return r;
        }
    }

    /**
     * The native pointer of the live resource {@code r} stands for (itself, or the ERef it is
     * equal to), or 0 when it is no resource. The live ERef goes into {@code pins}, which the
     * caller keeps until native code has taken its own reference (its Cleaner cannot run before).
     */
    static long pointer(ERef r, java.util.List<Object> pins) {
        if (r.idCount() != 3 || r.id(2) != TAG) return 0;
        Entry e = BY_ID.get(((long) r.id(1) << 18) | (r.id(0) & 0x3FFFFL));
        ERef live = e == null ? null : e.ref.get();
        if (live == null) return 0;
        if (pins != null) pins.add(live);
        return e.ptr;
    }

    /** True when {@code r} stands for a live native resource. */
    public static boolean isResource(ERef r) { return pointer(r, null) != 0; }

    private static void keep(long ptr) {
        try { JbeamNif.RESOURCE_KEEP.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }

    private static void release(long ptr) {
        try { JbeamNif.RESOURCE_RELEASE.invokeExact(MemorySegment.ofAddress(ptr)); } catch (Throwable e) { throw new AssertionError(e); }
    }
}
