package dev.wg1bench.result;

/**
 * A period when clients had lost their connection (a server restart, dropped connections, refused
 * reconnects): from the first client losing it to the last one getting it back.
 *
 * @param lostAt ISO-8601 instant the first client lost its connection
 * @param backAt when the last one had it back, null if some client was still without one at the end
 * @param seconds backAt - lostAt, null when not back
 * @param clientsLost clients that lost their connection during it
 * @param clientsReconnected clients that got one back
 * @param failedOps ops that failed for want of a connection during it
 */
public record Outage(
    String lostAt,
    String backAt,
    Double seconds,
    int clientsLost,
    int clientsReconnected,
    long failedOps) {}
