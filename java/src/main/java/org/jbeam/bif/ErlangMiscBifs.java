package org.jbeam.bif;

import java.security.MessageDigest;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang BIFs of the long tail: pid/ref/port/fun text forms, fun_info, make_fun, checksums
 * (md5 streaming, crc32, adler32), aliases, system_flag, memory, dtrace tags, node monitoring.
 */
public final class ErlangMiscBifs implements BifModule {
    private static final String E = "erlang";
    private static final EAtom NOSUSPEND = EAtom.of("nosuspend");
    private static final Term NOSUSPEND_OPTS = ECons.of(NOSUSPEND);

    @Override
    public void register(BifTable t) {
        t.bif1(E, "pid_to_list", (p, x) -> { if (!(x instanceof EPid)) throw ErlangException.badarg(); return str(TermPrinter.print(x)); });
        t.bif1(E, "port_to_list", (p, x) -> { if (!(x instanceof EPort)) throw ErlangException.badarg(); return str(TermPrinter.print(x)); });
        t.bif1(E, "ref_to_list", (p, x) -> { if (!(x instanceof ERef r)) throw ErlangException.badarg(); r.copiedOut(); return str(TermPrinter.print(x)); });
        t.bif1(E, "fun_to_list", (p, x) -> { if (!(x instanceof EFun)) throw ErlangException.badarg(); return str(TermPrinter.print(x)); });
        t.bif1(E, "list_to_pid", (p, x) -> TextForms.listToPid(p, x));
        t.bif1(E, "list_to_ref", (p, x) -> TextForms.listToRef(p, x));
        t.bif1(E, "list_to_port", (p, x) -> TextForms.listToPort(p, x));
        t.bif2(E, "fun_info", (p, f, item) -> FunInfo.item(f, item));
        t.bif1(E, "fun_info", (p, f) -> FunInfo.all(f));
        t.bif1(E, "fun_info_mfa", (p, f) -> FunInfo.mfa(f));
        t.bif3(E, "make_fun", (p, m, f, a) -> {
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || !(a instanceof ESmall ar) || ar.value < 0 || ar.value > 255)
                throw ErlangException.badarg();
            return new EExportFun(ma, fa, (int) ar.value);
        });
        t.bif1(E, "md5", (p, d) -> EBitString.of(md5(IoLists.toBytes(d, true))));
        t.bif0(E, "md5_init", p -> EBitString.of(new byte[0]));
        t.bif2(E, "md5_update", (p, ctx, data) -> {
            // The context is the data so far (immutable terms); digest at md5_final.
            byte[] a = ((EBitString) ctx).toByteArray(), b = IoLists.toBytes(data, true);
            byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, c, a.length, b.length);
            return EBitString.of(c);
        });
        t.bif1(E, "md5_final", (p, ctx) -> EBitString.of(md5(((EBitString) ctx).toByteArray())));
        t.bif1(E, "crc32", (p, d) -> { CRC32 c = new CRC32(); c.update(IoLists.toBytes(d, true)); return ESmall.of(c.getValue()); });
        t.bif2(E, "crc32", (p, old, d) -> ESmall.of(Checksums.crc32Combine(old, IoLists.toBytes(d, true))));
        t.bif1(E, "adler32", (p, d) -> { Adler32 c = new Adler32(); c.update(IoLists.toBytes(d, true)); return ESmall.of(c.getValue()); });
        t.bif2(E, "adler32", (p, old, d) -> ESmall.of(Checksums.adler32Continue(old, IoLists.toBytes(d, true))));
        t.bif0(E, "alias", p -> p.vm.aliases.create(p, false));
        t.bif1(E, "alias", (p, o) -> p.vm.aliases.create(p, Aliases.replyOnly(o)));
        t.bif1(E, "unalias", (p, r) -> {
            if (!(r instanceof ERef ref)) throw ErlangException.badarg();
            return EAtom.of(p.vm.aliases.remove(ref, p.pid));
        });
        t.bif2(E, "system_flag", ErlangMiscBifs::systemFlag);
        t.bif0(E, "memory", p -> Memory.all());
        t.bif1(E, "memory", (p, what) -> Memory.item(what));
        t.bif3(E, "is_builtin", (p, m, f, a) -> {
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || !(a instanceof ESmall ar)) throw ErlangException.badarg();
            // erts' BIFs, not jbeam's natives (many Erlang functions have a Java body here).
            return EAtom.of(ErtsBifs.NAMES.contains(ma.name + ' ' + fa.name + ' ' + ar.value));
        });
        t.bif1(E, "bump_reductions", (p, n) -> EAtom.TRUE);
        t.bif1(E, "dt_spread_tag", (p, b) -> ENil.NIL);
        t.bif1(E, "dt_restore_tag", (p, b) -> EAtom.TRUE);
        t.bif0(E, "dt_get_tag", p -> EAtom.UNDEFINED);
        t.bif0(E, "dt_get_tag_data", p -> EAtom.UNDEFINED);
        t.bif1(E, "dt_put_tag", (p, b) -> EAtom.UNDEFINED);
        t.bif2(E, "port_set_data", (p, port, d) -> { PortData.set(p.vm.ports.get(port), port, d); return EAtom.TRUE; });
        t.bif1(E, "port_get_data", (p, port) -> PortData.get(p.vm.ports.get(port), port));
        t.bif2(E, "process_display", (p, pid, type) -> EAtom.TRUE);
        t.bif0(E, "system_profile", p -> EAtom.UNDEFINED);
        ProcessControl.register(t);
        // As erlang.erl: send/3 with nosuspend added to the options; ok gives true.
        t.bif3(E, "send_nosuspend", (p, d, m, o) -> EAtom.of(ErlangProcessBifs.send3(p, d, m, new ECons(NOSUSPEND, o)) == EAtom.OK));
        t.bif2(E, "send_nosuspend", (p, d, m) -> EAtom.of(ErlangProcessBifs.send3(p, d, m, NOSUSPEND_OPTS) == EAtom.OK));
    }

    static byte[] md5(byte[] b) {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Term str(String s) { return IoLists.stringToCharlist(s); }

    private static Term systemFlag(ErlProcess p, Term flag, Term value) {
        if (!(flag instanceof EAtom f)) throw ErlangException.ertsBadarg("badopt");
        return switch (f.name) {
            case "backtrace_depth" -> ESmall.of(8);
            case "schedulers_online" -> ESmall.of(p.vm.scheduler.count());
            case "trap_exit" -> EAtom.FALSE;
            case "fullsweep_after" -> ESmall.of(65535);
            case "min_heap_size" -> ESmall.of(233);
            case "min_bin_vheap_size" -> ESmall.of(46422);
            case "max_heap_size" -> value;
            case "multi_scheduling" -> EAtom.of("enabled");
            case "scheduler_wall_time" -> {
                // As erts: through kernel_refc, which counts the processes that asked and switches
                // the statistic off when the last of them exits.
                if (value != EAtom.TRUE && value != EAtom.FALSE) throw ErlangException.badarg();
                yield org.jbeam.interp.Trap.call(p.vm.exports.get(EAtom.of("erts_internal"), EAtom.of("system_flag_scheduler_wall_time"), 1), new Term[] {value});
            }
            case "microstate_accounting" -> SchedulerStats.msaccFlag(p, value);
            case "time_offset" -> EAtom.of("final");
            case "system_logger" -> value;
            case "sequential_tracer" -> org.jbeam.trace.SeqTrace.setTracer(p, value);
            case "reset_seq_trace" -> org.jbeam.trace.SeqTrace.reset(p);
            case "erts_alloc", "cpu_topology", "dirty_cpu_schedulers_online", "scheduler_bind_type", "outstanding_system_requests_limit" -> value;
            default -> throw ErlangException.ertsBadarg("badopt");   // an unknown flag
        };
    }
}
