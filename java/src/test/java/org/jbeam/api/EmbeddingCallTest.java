package org.jbeam.api;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jbeam.term.*;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedding API's call, mailbox and gen_server call, against a booted OTP. */
class EmbeddingCallTest {
    static final ByteArrayOutputStream OUT = new ByteArrayOutputStream(), ERR = new ByteArrayOutputStream();
    static JBeam vm;

    @BeforeAll
    static void boot() {
        vm = JBeam.builder().otpRoot(OtpInstall.find()).stdout(OUT).stderr(ERR).args(List.of("-noshell")).schedulers(2).build().boot();
    }

    @AfterAll
    static void halt() { vm.close(); }

    static Term get(java.util.concurrent.CompletableFuture<Term> f) throws Exception { return f.get(20, TimeUnit.SECONDS); }

    static EAtom a(String s) { return EAtom.of(s); }

    @Test
    void callReturnsTheValueOrTheExit() throws Exception {
        assertEquals("[1,2,3,4,5]", TermPrinter.print(get(vm.call("lists", "seq", ESmall.of(1), ESmall.of(5)))));
        assertEquals("<<97,98,99>>", TermPrinter.print(get(vm.call("erlang", "list_to_binary", org.jbeam.bif.IoLists.stringToCharlist("abc")))));
        ExecutionException e = assertThrows(ExecutionException.class, () -> get(vm.call("erlang", "error", a("boom"))));
        ErlangExit x = assertInstanceOf(ErlangExit.class, e.getCause());
        assertTrue(x.reason() instanceof ETuple t && t.arity() == 2 && t.get(0) == a("boom"), "reason " + x.reason());
        e = assertThrows(ExecutionException.class, () -> get(vm.call("erlang", "exit", a("quit"))));
        assertEquals(a("quit"), ((ErlangExit) e.getCause()).reason());
        e = assertThrows(ExecutionException.class, () -> get(vm.call("no_such_module", "f")));
        assertTrue(TermPrinter.print(((ErlangExit) e.getCause()).reason()).startsWith("{undef,[{no_such_module,f,[]"), "undef");
        // Many calls: the function gets hot and runs compiled; its return value still arrives.
        for (int i = 0; i < 3000; i++) {
            Term r = get(vm.call("lists", "duplicate", ESmall.of(i % 7), a("x")));
            int n = 0;
            for (Term l = r; l instanceof ECons c; l = c.tail) n++;
            assertEquals(i % 7, n, "call " + i);
        }
        // The caller has the exception: no crash report as for a plain spawned process.
        Thread.sleep(400);
        assertFalse((OUT + "" + ERR).contains("Error in process"), "logged: " + OUT + ERR);
    }

    @Test
    void mailboxReceivesSelectivelyAndByName() throws Exception {
        try (Mailbox mb = vm.mailbox()) {
            for (String m : List.of("a", "b", "c")) assertEquals(a(m), get(vm.call("erlang", "send", mb.pid(), a(m))));
            assertEquals(a("b"), mb.receive(t -> t == a("b"), Duration.ofSeconds(5)));
            assertEquals(a("a"), mb.receive(Duration.ofSeconds(5)));
            assertEquals(a("c"), mb.receive(Duration.ofSeconds(5)));
            assertNull(mb.receive(Duration.ofMillis(50)));
            assertTrue(mb.register("jbeam_test_mailbox"));
            assertEquals(mb.pid(), get(vm.call("erlang", "whereis", a("jbeam_test_mailbox"))));
            get(vm.call("erlang", "send", a("jbeam_test_mailbox"), ETuple.of(a("hi"), ESmall.of(1))));
            assertEquals("{hi,1}", TermPrinter.print(mb.receive(Duration.ofSeconds(5))));
            assertEquals(a("true"), get(vm.call("erlang", "is_process_alive", mb.pid())));
            // exit/2 to it arrives as a message, as for a process trapping exits
            get(vm.call("erlang", "exit", mb.pid(), a("bye")));
            Term exit = mb.receive(Duration.ofSeconds(5));
            assertTrue(exit instanceof ETuple t && t.arity() == 3 && t.get(0) == a("EXIT") && t.get(2) == a("bye"), "got " + exit);
        }
        assertEquals(a("undefined"), get(vm.call("erlang", "whereis", a("jbeam_test_mailbox"))));
        Mailbox gone = vm.mailbox();
        gone.close();
        assertEquals(a("false"), get(vm.call("erlang", "is_process_alive", gone.pid())));
    }

    @Test
    void mailboxMonitors() throws Exception {
        try (Mailbox mb = vm.mailbox()) {
            EPid sleeper = vm.spawn("timer", "sleep", ESmall.of(100));
            ERef ref = mb.monitor(sleeper);
            Term down = mb.receive(Duration.ofSeconds(5));
            assertEquals(ETuple.of(EAtom.DOWN, ref, EAtom.PROCESS, sleeper, EAtom.NORMAL), down);
            ERef late = mb.monitor(sleeper);
            assertEquals(ETuple.of(EAtom.DOWN, late, EAtom.PROCESS, sleeper, EAtom.NOPROC), mb.receive(Duration.ofSeconds(5)));
        }
    }

    @Test
    void genServerCallFromJava() throws Exception {
        Term cwd = vm.genServerCall(a("file_server_2"), ETuple.of(a("get_cwd")), Duration.ofSeconds(10));
        assertEquals(ETuple.of(EAtom.OK, org.jbeam.bif.IoLists.stringToCharlist(System.getProperty("user.dir"))), cwd);
        EPid silent = vm.spawn("timer", "sleep", a("infinity"));
        assertThrows(TimeoutException.class, () -> vm.genServerCall(silent, a("ping"), Duration.ofMillis(200)));
        vm.send(silent, a("ignored"));
        get(vm.call("erlang", "exit", silent, a("kill")));
        assertEquals(a("killed"), vm.awaitExit(silent, Duration.ofSeconds(5)));
        ErlangExit x = assertThrows(ErlangExit.class, () -> vm.genServerCall(silent, a("ping"), Duration.ofSeconds(5)));
        assertEquals(EAtom.NOPROC, x.reason());
        x = assertThrows(ErlangExit.class, () -> vm.genServerCall(a("no_such_server"), a("ping"), Duration.ofSeconds(5)));
        assertEquals(EAtom.NOPROC, x.reason());
        // The other server forms go through OTP's gen_server:call: {Name, Node}, {global, Name}, {via, Mod, Name}.
        Term local = ETuple.of(a("file_server_2"), get(vm.call("erlang", "node")));
        assertEquals(cwd, vm.genServerCall(local, ETuple.of(a("get_cwd")), Duration.ofSeconds(10)));
        x = assertThrows(ErlangExit.class, () -> vm.genServerCall(ETuple.of(a("global"), a("no_such_server")), a("ping"), Duration.ofSeconds(5)));
        assertEquals(EAtom.NOPROC, x.reason());
        EPid silent2 = vm.spawn("timer", "sleep", a("infinity"));
        get(vm.call("global", "register_name", a("jbeam_silent"), silent2));
        assertThrows(TimeoutException.class, () -> vm.genServerCall(ETuple.of(a("via"), a("global"), a("jbeam_silent")), a("ping"), Duration.ofMillis(200)));
        get(vm.call("erlang", "exit", silent2, a("kill")));
    }
}
