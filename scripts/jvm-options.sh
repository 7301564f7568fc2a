# The JVM options of every jbeam run (bin/jbeam) and of the AOT training run (scripts/aot-cache.sh),
# which must match so the training profiles describe the runs that use them. Sourced; sets
# JBEAM_JVM_OPTS (an array). $here is the checkout.
JBEAM_JVM_OPTS=(
  # FFM downcalls, and the socket ring taking a NIO channel's fd (ADR 0016).
  --enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
  # File reads allocate their result arrays without zeroing them (jdk.internal.misc.Unsafe, ADR 0044).
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  -Xss16m
  # stdout belongs to the Erlang program (erl-identical output): the JVM's own messages (warnings
  # about an unsupported option on another kernel, for instance) go to stderr.
  -XX:+DisplayVMOutputToStderr
  # ParallelGC; boot leaves ~15 MB of long-lived objects (code, atoms, OTP's processes) in the
  # young generation: promote them at the second young collection instead of copying them up to
  # seven times (ADR 0017).
  -XX:+UseParallelGC -XX:InitialTenuringThreshold=1
  # A thread coming back from native code (every FFM downcall: NIFs, files, io_uring) skips its
  # StoreLoad fence; safepoints and handshakes pay with one membarrier(2) call instead (ADR 0022).
  -XX:+UseSystemMemoryBarrier
  # No switch profiling: C2 turns every case of the interpreter's opcode switch (and of a compiled
  # function's entry switch) not yet seen into a trap, and each new case seen later cost a
  # deoptimisation and another C2 compile of the whole interpreter loop (ADR 0024).
  -XX:+UnlockDiagnosticVMOptions -XX:-UseSwitchProfiling
  # Code that runs in bursts (the .beam loader, the bytecode tier's class generator and the JDK's
  # class-file library under it) is compiled by C1 only: C2 gives up on it at once (MaxNodeLimit)
  # and HotSpot falls back to C1's full tier. Otherwise C2, one thread on a 2-core machine, spends
  # about a second on them at boot while the workload's hot code waits in its queue (ADR 0024).
  -XX:CompileCommand=quiet -XX:CompileCommand=MaxNodeLimit,org.jbeam.loader.*::*,2000
  -XX:CompileCommand=MaxNodeLimit,org.jbeam.jit.*::*,2000 -XX:CompileCommand=MaxNodeLimit,jdk.internal.classfile.impl.*::*,2000
  # Method-type interning under invokedynamic linkage, hot at boot only: 0.2-2.6 s of C2 in most boots
  # (JFR), ahead of the program's own code in C2's queue (ADR 0037).
  -XX:CompileCommand=MaxNodeLimit,java.lang.invoke.MethodType::makeImpl,2000
  # ... and its caller methodType(Class, Class[]), into which C2 then inlined it: 0.3-0.5 s at boot (ADR 0043).
  -XX:CompileCommand=MaxNodeLimit,java.lang.invoke.MethodType::methodType,2000
  # Rare paths of the interpreter loop whose outcome changes after boot, kept out of its compile (ADR 0043).
  -XX:CompileCommand=dontinline,org.jbeam.interp.JitSupport::hotCall
  # A compiled function's return (54 bytes of bytecode): C1 and C2 left it a call at some return
  # sites of compiled functions ("callee is too large", "too big": over MaxInlineSize where the
  # site's profile count looked low), a call per Erlang return in fib/1 (ADR 0050).
  -XX:CompileCommand=inline,org.jbeam.interp.Interpreter::doReturn
  # A NIF call from compiled Erlang is inlined into the caller whole, down to the downcall (ADR 0031):
  # C2 refuses to inline a callee it has already compiled on its own into more than InlineSmallCode
  # bytes, and whether these had been depended on what ran first.
  -XX:CompileCommand=inline,org.jbeam.interp.JitNif::call* -XX:CompileCommand=inline,org.jbeam.bif.LoadNif\$NifBif::apply
  -XX:CompileCommand=inline,org.jbeam.nif.NifFunction::call0 -XX:CompileCommand=inline,org.jbeam.nif.NifFunction::call1
  -XX:CompileCommand=inline,org.jbeam.nif.NifFunction::call2 -XX:CompileCommand=inline,org.jbeam.nif.NifFunction::call3
  -XX:CompileCommand=inline,org.jbeam.nif.NifFunction::immediates
  -XX:CompileCommand=inline,org.jbeam.nif.NifCallContext::acquire -XX:CompileCommand=inline,org.jbeam.nif.NifCallContext::selfId
  -XX:CompileCommand=inline,org.jbeam.nif.NifCallContext::callImm -XX:CompileCommand=inline,org.jbeam.nif.NifCallContext::decode
  -XX:CompileCommand=inline,org.jbeam.nif.NifCallContext::releaseLocal
  -Djbeam.nativeDir="$here/target/native"
)
# Young generation at most 512 MB (ParallelGC would grow it to a third of the heap, 2 GB on a 24 GB
# machine): every first touch of a new eden page is a kernel page fault that zeroes it, 250-450 ms
# of system time each time eden doubles under a workload streaming through fresh memory (1 GiB of
# 64 KiB file reads), and an eden that stays the same size is warm in the caches. Only where the
# default heap is large enough for the cap to be below the default (>= 8 GB of memory; with less,
# and with an explicit heap size in JBEAM_JAVA_OPTS, the JVM's own sizing applies and no
# inconsistent-size warning is printed). ADR 0034.
jbeam_mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null)
if [ -r /sys/fs/cgroup/memory.max ] && read -r jbeam_cg < /sys/fs/cgroup/memory.max && [[ "$jbeam_cg" =~ ^[0-9]+$ ]] \
   && [ $((jbeam_cg / 1024)) -lt "${jbeam_mem_kb:-0}" ]; then jbeam_mem_kb=$((jbeam_cg / 1024)); fi
if [ "${jbeam_mem_kb:-0}" -ge $((8 * 1024 * 1024 - 262144)) ] && ! [[ "${JBEAM_JAVA_OPTS:-}" =~ -Xm[xn]|NewSize|HeapSize|MaxRAM|RAMPercentage ]]; then
  JBEAM_JVM_OPTS+=(-XX:MaxNewSize=512m)
fi
unset jbeam_mem_kb jbeam_cg
