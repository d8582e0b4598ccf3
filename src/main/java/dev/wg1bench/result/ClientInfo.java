package dev.wg1bench.result;

import java.util.Map;

/**
 * How the client talked to the server.
 *
 * @param ssl what the connections negotiated (pg_stat_ssl), "off" when unencrypted
 * @param sslmode the sslmode asked for ("prefer" is pgjdbc's default)
 * @param sessionSettings effective values of each --set, read back from a client connection
 * @param binaryTransfer pgjdbc binaryTransfer (its default is true)
 * @param fetchSize pgjdbc defaultRowFetchSize (its default is 0: all rows)
 * @param jdbcProperties other pgjdbc properties given with --jdbc-property
 * @param pool the shared pool, or null when each client had its own connection
 * @param socketTimeoutS pgjdbc socketTimeout of client connections: how long one read may wait for
 *     the server before the op fails as a connection failure (0 = none, the default)
 * @param stallGraceS how long past the end of an iteration an op may still wait for the server
 *     before the stall watchdog aborts its connection (the op then fails as a connection failure)
 * @param threads what the clients ran on (--threads), with virtual threads' pins; null in results
 *     written before the knob existed
 */
public record ClientInfo(
    String pgjdbc,
    String queryMode,
    String preferQueryMode,
    int prepareThreshold,
    String isolation,
    String sslmode,
    String ssl,
    Map<String, String> sessionSettings,
    boolean binaryTransfer,
    int fetchSize,
    boolean rewriteBatchedInserts,
    Map<String, String> jdbcProperties,
    int clients,
    int connections,
    PoolInfo pool,
    int socketTimeoutS,
    double stallGraceS,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        ClientThreads threads) {}
