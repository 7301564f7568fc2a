package org.jbeam.nif;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * The undefined symbols of a NIF library (its ELF .dynsym), to decide whether its functions may
 * run as critical downcalls with heap access (ADR 0006): only if it imports none of the erl_nif
 * functions that call back into Java. A library that calls them through dlsym'ed pointers
 * defeats this; erl_nif's own documentation gives no reason to do so.
 */
final class NifImports {
    private NifImports() {}

    /** erl_nif functions whose implementation may call into Java (an upcall), directly or through a destructor. */
    private static final Set<String> UPCALLING = Set.of("enif_send", "enif_make_ref", "enif_make_existing_atom",
            "enif_make_existing_atom_len", "enif_term_to_binary", "enif_binary_to_term", "enif_whereis_pid",
            "enif_whereis_port", "enif_port_command", "enif_is_port_alive", "enif_is_process_alive", "enif_monitor_process",
            "enif_demonitor_process", "enif_hash");

    /** True when {@code so} is a 64-bit ELF file whose imports include no upcalling erl_nif function. */
    static boolean noUpcalls(Path so) {
        try {
            for (String s : undefined(so)) if (UPCALLING.contains(s)) return false;
            return true;
        } catch (IOException | RuntimeException e) {
            return false;   // unreadable or not ELF64: assume the worst
        }
    }

    static Set<String> undefined(Path so) throws IOException {
        ByteBuffer b;
        try (FileChannel ch = FileChannel.open(so, StandardOpenOption.READ)) {
            b = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        }
        if (b.getInt(0) != 0x7F454C46 || b.get(4) != 2) throw new IOException("not ELF64");
        b.order(b.get(5) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        long shoff = b.getLong(0x28);
        int shentsize = b.getShort(0x3A) & 0xFFFF, shnum = b.getShort(0x3C) & 0xFFFF;
        Set<String> out = new HashSet<>();
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (b.getInt(sh + 4) != 11) continue;   // SHT_DYNSYM
            long off = b.getLong(sh + 0x18), size = b.getLong(sh + 0x20), entsize = b.getLong(sh + 0x38);
            int strsh = (int) (shoff + (long) b.getInt(sh + 0x28) * shentsize);
            long stroff = b.getLong(strsh + 0x18);
            for (long s = off + entsize; s + 24 <= off + size; s += entsize) {   // entry 0 is the null symbol
                if (b.getShort((int) s + 6) != 0) continue;   // st_shndx != SHN_UNDEF: defined here
                int p = (int) (stroff + (b.getInt((int) s) & 0xFFFFFFFFL));
                StringBuilder name = new StringBuilder();
                for (byte c; (c = b.get(p)) != 0; p++) name.append((char) c);
                out.add(name.toString());
            }
        }
        return out;
    }
}
