package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

/** Every native module the runtime declares: the one list to extend when adding a BIF module. */
public final class Natives {
    private Natives() {}

    public static List<BifModule> all() {
        return new ArrayList<>(List.of(
                new ErlangTermBifs(), new ErlangProcessBifs(), new ErlangSystemBifs(), new CodeBifs(),
                new ListsBifs(), new MapsBifs(), new BinaryBifs(), new UnicodeBifs(), new ReBifs(),
                new org.jbeam.etf.EtfBifs(), new PortBifs(), new OsBifs(), new ErtsInternalBifs(),
                new PersistentTermBifs(), new ErlangNumberBifs(), new ErlangMiscBifs(), new PrimFileBifs(), new org.jbeam.socket.SocketNifs(), new EtsBifs(),
                new MiscNatives(), new org.jbeam.inet.InetNatives(), new org.jbeam.zlib.ZlibNifs(), new org.jbeam.trace.TraceBifs(), new org.jbeam.trace.SeqTrace(), new org.jbeam.ddll.DdllBifs()));
    }
}
