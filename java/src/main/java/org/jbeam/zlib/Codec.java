package org.jbeam.zlib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jbeam.bindings.zlib.Zlib;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.ENil;
import org.jbeam.term.Term;

/**
 * One deflate_nif/inflate_nif call (erts zlib_codec and zlib_flush_queue): feed queued input, at
 * most {@code inputLimit} bytes, into the stream without flushing, then flush with the caller's
 * mode once all input is taken and there is room; return {finished, Out} when the queue is empty
 * and the output chunk was not filled, {continue, Out} otherwise, or {need_dictionary, Adler,
 * Out}. Each queued block is offered as erts offers an I/O-vector element: up to
 * min(its size, inputLimit) bytes at a time.
 */
final class Codec {
    private Codec() {}

    static Term run(ZStream s, boolean deflate, int inputLimit, int outputChunk, int flush) {
        if (inputLimit <= 0 || outputChunk <= 0) throw org.jbeam.runtime.ErlangException.badarg();
        MemorySegment strm = s.strm;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(outputChunk);
            MemorySegment in = a.allocate(inputLimit);
            strm.set(ValueLayout.ADDRESS, Zlib.NEXT_OUT, out);
            strm.set(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT, outputChunk);
            int res = Zlib.Z_OK;
            long consumed = 0;
            boolean first = true;
            for (byte[] vec : s.input) {
                if (res != Zlib.Z_OK || consumed >= inputLimit) break;
                int off = first ? s.headOffset : 0;
                first = false;
                int block = Math.min(vec.length - off, inputLimit);
                MemorySegment.copy(vec, off, in, ValueLayout.JAVA_BYTE, 0, block);
                strm.set(ValueLayout.ADDRESS, Zlib.NEXT_IN, in);
                strm.set(ValueLayout.JAVA_INT, Zlib.AVAIL_IN, block);
                res = code(deflate, strm, Zlib.Z_NO_FLUSH);
                int taken = block - strm.get(ValueLayout.JAVA_INT, Zlib.AVAIL_IN);
                consumed += taken;
                if (s.wantInputCrc) s.inputCrc.update(vec, off, taken);
            }
            s.dequeue(consumed);
            long remaining = s.queued;
            if (res == Zlib.Z_OK && remaining == 0 && strm.get(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT) > 0) {
                // End of input: flush the stream's state (a no-op when there is nothing left).
                strm.set(ValueLayout.ADDRESS, Zlib.NEXT_IN, MemorySegment.NULL);
                strm.set(ValueLayout.JAVA_INT, Zlib.AVAIL_IN, 0);
                res = code(deflate, strm, flush);
            }
            int produced = outputChunk - strm.get(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT);
            // The buffers die with this call: leave no pointers to them in the stream.
            strm.set(ValueLayout.ADDRESS, Zlib.NEXT_IN, MemorySegment.NULL);
            strm.set(ValueLayout.ADDRESS, Zlib.NEXT_OUT, MemorySegment.NULL);
            strm.set(ValueLayout.JAVA_INT, Zlib.AVAIL_OUT, 0);
            if (res < 0 && res != Zlib.Z_BUF_ERROR) return ZlibNifs.result(res);
            if (res == Zlib.Z_STREAM_END) s.eosSeen = true;
            byte[] bytes = produced > 0 ? out.asSlice(0, produced).toArray(ValueLayout.JAVA_BYTE) : null;
            if (s.wantOutputCrc && bytes != null) s.outputCrc.update(bytes);
            // No progress at all on input that is left: malformed data (erts' guard against spinning).
            if (consumed == 0 && produced == 0 && remaining != 0) return ZlibNifs.result(Zlib.Z_DATA_ERROR);
            Term output = bytes != null ? ECons.of(EBitString.of(bytes)) : ENil.NIL;
            boolean finished = remaining == 0 && produced < outputChunk;
            return ZlibNifs.chunkResult(finished, res == Zlib.Z_NEED_DICT, strm.get(ValueLayout.JAVA_LONG, Zlib.ADLER), output);
        }
    }

    private static int code(boolean deflate, MemorySegment strm, int flush) {
        return deflate ? Zlib.deflate(strm, flush) : Zlib.inflate(strm, flush);
    }
}
