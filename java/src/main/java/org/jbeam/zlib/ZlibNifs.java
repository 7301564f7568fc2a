package org.jbeam.zlib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.bindings.zlib.Zlib;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.IoData;
import org.jbeam.term.*;

/**
 * The NIFs of OTP's zlib module (a static NIF library in erts, zlib_nif.c), on the system libz
 * through FFM, so compressed output is byte-for-byte erl's. zlib.erl itself runs unmodified: it
 * queues input (enqueue_nif), then pulls chunks (deflate_nif/inflate_nif) until finished. Errors
 * are erts': badarg for bad arguments, error:not_on_controlling_process, not_initialized,
 * already_initialized, stream_error and data_error exceptions, other zlib codes as atoms.
 */
public final class ZlibNifs implements BifModule {
    private static final String M = "zlib";
    private static final EAtom NOT_ON_CONTROLLING_PROCESS = EAtom.of("not_on_controlling_process"),
            NOT_INITIALIZED = EAtom.of("not_initialized"), ALREADY_INITIALIZED = EAtom.of("already_initialized"),
            CONTINUE = EAtom.of("continue"), FINISHED = EAtom.of("finished"), NEED_DICTIONARY = EAtom.of("need_dictionary"),
            EMPTY = EAtom.of("empty");

    @Override
    public void register(BifTable t) {
        nif0(t, "open_nif", p -> ZStream.open(p.pid));
        nif1(t, "close_nif", (p, z) -> {
            ZStream s = checked(p, z);
            if (s.state() == ZStream.State.CLOSED) throw ErlangException.error(NOT_INITIALIZED);
            s.close();
            return EAtom.OK;
        });
        nif2(t, "set_controller_nif", (p, z, pid) -> {
            if (!(pid instanceof EPid np) || np.node != p.vm.nodeName) throw ErlangException.badarg();
            checked(p, z).controller = np;
            return EAtom.OK;
        });
        nifN(t, 6, "deflateInit_nif", (p, a) -> deflateInit(p, a));
        nif2(t, "deflateSetDictionary_nif", (p, z, d) -> setDictionary(p, z, d, ZStream.State.DEFLATE));
        nif1(t, "deflateReset_nif", (p, z) -> {
            ZStream s = in(p, z, ZStream.State.DEFLATE);
            int res = Zlib.deflateReset(s.strm);
            s.inputCrc.reset();
            s.eosSeen = false;
            s.resetInput();
            return result(res);
        });
        nif1(t, "deflateEnd_nif", (p, z) -> {
            ZStream s = in(p, z, ZStream.State.DEFLATE);
            int res = Zlib.deflateEnd(s.strm);
            if (res == Zlib.Z_OK && s.queued > 0) res = Zlib.Z_DATA_ERROR;
            s.resetInput();
            s.state(ZStream.State.NONE);
            return result(res);
        });
        nif3(t, "deflateParams_nif", (p, z, level, strategy) -> {
            ZStream s = in(p, z, ZStream.State.DEFLATE);
            int l = intArg(level), st = intArg(strategy);
            // As erts: zlib.erl flushed everything before this call, so deflateParams must not
            // produce output; a one-byte buffer detects it if it does.
            try (Arena a = Arena.ofConfined()) {
                MemorySegment dummy = a.allocate(1);
                s.strm.set(ValueLayout.ADDRESS, Zlib.NEXT_OUT, dummy);
                s.strm.set(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT, 1);
                int res = Zlib.deflateParams(s.strm, l, st);
                boolean wrote = s.strm.get(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT) == 0;
                s.strm.set(ValueLayout.ADDRESS, Zlib.NEXT_OUT, MemorySegment.NULL);
                return result(wrote ? Zlib.Z_STREAM_ERROR : res);
            }
        });
        nifN(t, 4, "deflate_nif", (p, a) -> {
            ZStream s = in(p, a[0], ZStream.State.DEFLATE);
            return Codec.run(s, true, intArg(a[1]), intArg(a[2]), intArg(a[3]));
        });
        nif3(t, "inflateInit_nif", (p, z, wbits, eos) -> {
            ZStream s = checked(p, z);
            int w = intArg(wbits), e = intArg(eos);
            if (s.state() != ZStream.State.NONE) throw ErlangException.error(ALREADY_INITIALIZED);
            int res = Zlib.inflateInit2(s.strm, w);
            if (res == Zlib.Z_OK) {
                s.state(ZStream.State.INFLATE);
                s.eosBehavior = e;
                s.eosSeen = false;
                s.rawStream = w < 0;
                s.wantOutputCrc = s.rawStream;
                s.wantInputCrc = false;
                s.inputCrc.reset();
                s.outputCrc.reset();
            }
            return result(res);
        });
        nif2(t, "inflateSetDictionary_nif", (p, z, d) -> setDictionary(p, z, d, ZStream.State.INFLATE));
        nif1(t, "inflateGetDictionary_nif", (p, z) -> {
            ZStream s = in(p, z, ZStream.State.INFLATE);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment dict = a.allocate(32768), len = a.allocate(4);
                int res = Zlib.inflateGetDictionary(s.strm, dict, len);
                if (res < 0) return result(res);
                return EBitString.of(dict.asSlice(0, len.get(ValueLayout.JAVA_INT, 0)).toArray(ValueLayout.JAVA_BYTE));
            }
        });
        nif1(t, "inflateReset_nif", (p, z) -> {
            ZStream s = in(p, z, ZStream.State.INFLATE);
            int res = Zlib.inflateReset(s.strm);
            s.outputCrc.reset();
            s.eosSeen = false;
            s.resetInput();
            return result(res);
        });
        nif1(t, "inflateEnd_nif", (p, z) -> {
            ZStream s = in(p, z, ZStream.State.INFLATE);
            int res = Zlib.inflateEnd(s.strm);
            if (res == Zlib.Z_OK && (!s.eosSeen || s.queued > 0)) res = Zlib.Z_DATA_ERROR;
            s.resetInput();
            s.state(ZStream.State.NONE);
            return result(res);
        });
        nifN(t, 4, "inflate_nif", (p, a) -> {
            ZStream s = in(p, a[0], ZStream.State.INFLATE);
            int ich = intArg(a[1]), och = intArg(a[2]), flush = intArg(a[3]);
            if (s.eosSeen && s.queued > 0) {
                switch (s.eosBehavior) {
                    case ZStream.EOS_ERROR -> { return result(Zlib.Z_DATA_ERROR); }
                    case ZStream.EOS_RESET -> {
                        int res = Zlib.inflateReset(s.strm);
                        if (res != Zlib.Z_OK) return result(res);
                        s.eosSeen = false;
                    }
                    default -> s.resetInput();
                }
            }
            return Codec.run(s, false, ich, och, flush);
        });
        nif1(t, "crc32_nif", (p, z) -> {
            ZStream s = checked(p, z);
            if (s.state() == ZStream.State.DEFLATE) return EInteger.of(s.inputCrc.getValue());
            if (s.state() == ZStream.State.INFLATE) return EInteger.of(s.outputCrc.getValue());
            throw ErlangException.error(NOT_INITIALIZED);
        });
        nif1(t, "getStash_nif", (p, z) -> {
            ZStream s = checked(p, z);
            return s.stash == null ? EMPTY : ETuple.of(EAtom.OK, s.stash);
        });
        nif1(t, "clearStash_nif", (p, z) -> {
            ZStream s = checked(p, z);
            if (s.stash == null) throw ErlangException.error(EAtom.ERROR);
            s.stash = null;
            return EAtom.OK;
        });
        nif2(t, "setStash_nif", (p, z, v) -> {
            ZStream s = checked(p, z);
            if (s.stash != null) throw ErlangException.error(EAtom.ERROR);
            s.stash = v;
            return EAtom.OK;
        });
        nif1(t, "getBufSize_nif", (p, z) -> ESmall.of(checked(p, z).bufSize));
        nif2(t, "setBufSize_nif", (p, z, n) -> {
            ZStream s = checked(p, z);
            s.bufSize = intArg(n);
            return EAtom.OK;
        });
        nif2(t, "enqueue_nif", (p, z, data) -> {
            ZStream s = checked(p, z);
            if (s.state() != ZStream.State.DEFLATE && s.state() != ZStream.State.INFLATE) throw ErlangException.error(NOT_INITIALIZED);
            byte[] b;
            try { b = IoData.toBytes(data); } catch (ErlangException e) { throw ErlangException.badarg(); }
            if (b == null) throw ErlangException.badarg();
            s.enqueue(b);
            return EAtom.OK;
        });
    }

    // A NIF's exception shows the NIF as the failing frame, with no error_info, and the function it
    // replaced is not a frame of its own (as erts, and as for loaded NIF libraries: NifFunction).
    private static ErlangException asNif(ErlangException e) {
        if (e.errorInfo == null) e.errorInfo = ENil.NIL;
        e.skipCurrentFrame = true;
        return e;
    }
    private static void nif0(BifTable t, String f, org.jbeam.bif.Bif.F0 fn) {
        t.bif0(M, f, p -> { try { return fn.apply(p); } catch (ErlangException e) { throw asNif(e); } });
    }
    private static void nif1(BifTable t, String f, org.jbeam.bif.Bif.F1 fn) {
        t.bif1(M, f, (p, a) -> { try { return fn.apply(p, a); } catch (ErlangException e) { throw asNif(e); } });
    }
    private static void nif2(BifTable t, String f, org.jbeam.bif.Bif.F2 fn) {
        t.bif2(M, f, (p, a, b) -> { try { return fn.apply(p, a, b); } catch (ErlangException e) { throw asNif(e); } });
    }
    private static void nif3(BifTable t, String f, org.jbeam.bif.Bif.F3 fn) {
        t.bif3(M, f, (p, a, b, c) -> { try { return fn.apply(p, a, b, c); } catch (ErlangException e) { throw asNif(e); } });
    }
    private static void nifN(BifTable t, int arity, String f, org.jbeam.bif.Bif.N fn) {
        t.bifN(M, f, arity, (p, a) -> { try { return fn.apply(p, a); } catch (ErlangException e) { throw asNif(e); } });
    }

    private static Term deflateInit(ErlProcess p, Term[] a) {
        ZStream s = checked(p, a[0]);
        int level = intArg(a[1]), method = intArg(a[2]), wbits = intArg(a[3]), mem = intArg(a[4]), strategy = intArg(a[5]);
        if (s.state() != ZStream.State.NONE) throw ErlangException.error(ALREADY_INITIALIZED);
        int res = Zlib.deflateInit2(s.strm, level, method, wbits, mem, strategy);
        if (res == Zlib.Z_OK) {
            s.state(ZStream.State.DEFLATE);
            s.eosSeen = false;
            s.rawStream = wbits < 0;
            s.wantOutputCrc = false;
            s.wantInputCrc = s.rawStream;
            s.inputCrc.reset();
            s.outputCrc.reset();
        }
        return result(res);
    }

    private static Term setDictionary(ErlProcess p, Term z, Term dict, ZStream.State want) {
        ZStream s = checked(p, z);
        byte[] b;
        try { b = IoData.toBytes(dict); } catch (ErlangException e) { throw ErlangException.badarg(); }
        if (b == null) throw ErlangException.badarg();
        if (s.state() != want) throw ErlangException.error(NOT_INITIALIZED);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(Math.max(1, b.length));
            MemorySegment.copy(b, 0, d, ValueLayout.JAVA_BYTE, 0, b.length);
            if (want == ZStream.State.INFLATE) return result(Zlib.inflateSetDictionary(s.strm, d, b.length));
            int res = Zlib.deflateSetDictionary(s.strm, d, b.length);
            if (res != Zlib.Z_OK) return result(res);
            // The stream's adler field is not updated for raw deflate: computed here, as erts does.
            long sum = s.rawStream ? Zlib.adler32(0, d, b.length) : s.strm.get(ValueLayout.JAVA_LONG, Zlib.ADLER);
            return EInteger.of(sum);
        }
    }

    /** The stream, if the caller controls it (badarg for a non-stream, as erts' enif_get_resource). */
    static ZStream checked(ErlProcess p, Term z) {
        ZStream s = ZStream.of(z);
        if (!p.pid.equals(s.controller)) throw ErlangException.error(NOT_ON_CONTROLLING_PROCESS);
        return s;
    }

    private static ZStream in(ErlProcess p, Term z, ZStream.State want) {
        ZStream s = checked(p, z);
        if (s.state() != want) throw ErlangException.error(NOT_INITIALIZED);
        return s;
    }

    static int intArg(Term t) {
        if (t instanceof ESmall s && s.value == (int) s.value) return (int) s.value;
        throw ErlangException.badarg();
    }

    /** erts' zlib_return: ok/stream_end, exceptions for stream and data errors, atoms for the rest. */
    static Term result(int code) {
        return switch (code) {
            case Zlib.Z_OK -> EAtom.OK;
            case Zlib.Z_STREAM_END -> EAtom.of("stream_end");
            case Zlib.Z_STREAM_ERROR -> throw ErlangException.error(EAtom.of("stream_error"));
            case Zlib.Z_DATA_ERROR -> throw ErlangException.error(EAtom.of("data_error"));
            case Zlib.Z_MEM_ERROR -> EAtom.of("mem_error");
            case Zlib.Z_BUF_ERROR -> EAtom.of("buf_error");
            case Zlib.Z_VERSION_ERROR -> EAtom.of("version_error");
            default -> EAtom.of("unknown_error");
        };
    }

    static Term chunkResult(boolean finished, boolean needDict, long adler, Term output) {
        if (finished) return ETuple.of(FINISHED, output);
        if (!needDict) return ETuple.of(CONTINUE, output);
        return ETuple.of(NEED_DICTIONARY, EInteger.of(adler), output);
    }
}
