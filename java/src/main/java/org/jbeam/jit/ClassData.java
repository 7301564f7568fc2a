package org.jbeam.jit;

import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DynamicConstantDesc;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live objects a compiled function refers to (its module, instructions, literals, return
 * addresses, exports). They are passed as the hidden class's class data and loaded with
 * {@code ldc} of a dynamic constant ({@code MethodHandles.classDataAt}), so HotSpot sees true
 * constants: a type test or small-integer comparison against a literal folds away.
 */
final class ClassData {
    private final List<Object> items = new ArrayList<>();
    private final Map<Object, Integer> index = new IdentityHashMap<>();

    /** Emits {@code ldc} of {@code o} typed as {@code type}. */
    void load(CodeBuilder c, Object o, ClassDesc type) {
        if (o == null) { c.aconst_null(); return; }
        int i = index.computeIfAbsent(o, k -> { items.add(k); return items.size() - 1; });
        c.ldc(DynamicConstantDesc.ofNamed(ConstantDescs.BSM_CLASS_DATA_AT, ConstantDescs.DEFAULT_NAME, type, i));
    }

    List<Object> list() { return List.copyOf(items); }
}
