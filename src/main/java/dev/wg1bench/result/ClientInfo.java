package dev.wg1bench.result;

import java.util.Map;

/**
 * How the client talked to the server.
 *
 * @param ssl what the connections negotiated (pg_stat_ssl), "off" when unencrypted
 * @param sslmode the sslmode asked for ("prefer" is pgjdbc's default)
 * @param sessionSettings effective values of each --set, read back from a client connection
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
    int clients,
    int connections) {}
