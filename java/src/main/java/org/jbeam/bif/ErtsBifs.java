package org.jbeam.bif;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The names erts implements as BIFs (its bif.tab), for erlang:is_builtin/3: xref and the compiler
 * ask it to tell BIF calls from calls to Erlang code. jbeam's own native table is no guide: it also
 * holds Java bodies of Erlang functions (gen_tcp:send/2, NIF stubs) that erts runs as Erlang.
 */
final class ErtsBifs {
    private ErtsBifs() {}

    /** "Module Function Arity" of every erts BIF. */
    static final Set<String> NAMES = load();

    private static Set<String> load() {
        Set<String> s = new HashSet<>();
        try (var in = ErtsBifs.class.getResourceAsStream("erts-bifs.txt")) {
            if (in == null) throw new IllegalStateException("erts-bifs.txt missing from the jar");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) if (!line.isEmpty() && line.charAt(0) != '#') s.add(line.trim());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }
}
