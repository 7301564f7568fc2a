package org.jbeam.dist;

/** Distribution control message operations (erts' dist.h, "Protocol between connected nodes"). */
final class DistOps {
    private DistOps() {}

    /** The pass-through prefix of a packet without a distribution header (no atom cache). */
    static final int PASS_THROUGH = 112;

    static final int LINK = 1, SEND = 2, EXIT = 3, UNLINK = 4, NODE_LINK = 5, REG_SEND = 6, GROUP_LEADER = 7, EXIT2 = 8,
            SEND_TT = 12, EXIT_TT = 13, REG_SEND_TT = 16, EXIT2_TT = 18, MONITOR_P = 19, DEMONITOR_P = 20,
            MONITOR_P_EXIT = 21, SEND_SENDER = 22, SEND_SENDER_TT = 23, PAYLOAD_EXIT = 24, PAYLOAD_EXIT_TT = 25,
            PAYLOAD_EXIT2 = 26, PAYLOAD_EXIT2_TT = 27, PAYLOAD_MONITOR_P_EXIT = 28, SPAWN_REQUEST = 29,
            SPAWN_REQUEST_TT = 30, SPAWN_REPLY = 31, SPAWN_REPLY_TT = 32, ALIAS_SEND = 33, ALIAS_SEND_TT = 34,
            UNLINK_ID = 35, UNLINK_ID_ACK = 36;

    /** Spawn reply flags. */
    static final int SPAWN_LINKED = 1, SPAWN_MONITORED = 2;
}
