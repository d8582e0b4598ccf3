package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.wg1bench.plan.RoundTrip;
import java.util.Map;

/**
 * How the client talked to the server, in named parts written into the JSON in their place as if
 * the record were flat (the format predates the parts). Each figure:
 *
 * <p>{@code ssl}: what the connections negotiated (pg_stat_ssl), "off" when unencrypted; "unknown
 * (the probe was refused: SQLSTATE: message)" when the server refused the session opened to read it
 * (a role at its connection limit once the pool holds its share); null when no client said
 *
 * <p>{@code sslmode}: the sslmode asked for ("prefer" is pgjdbc's default)
 *
 * <p>{@code sessionSettings}: effective values of each --set, read back from a client connection
 *
 * <p>{@code binaryTransfer}: pgjdbc binaryTransfer (its default is true)
 *
 * <p>{@code fetchSize}: pgjdbc defaultRowFetchSize (its default is 0: all rows)
 *
 * <p>{@code jdbcProperties}: other pgjdbc properties given with --jdbc-property
 *
 * <p>{@code rttMs}: the round-trip time --rtt added to every client connection (the delay line), in
 * ms; 0 when none (the path as it was)
 *
 * <p>{@code pool}: the shared pool, or null when each client had its own connection
 *
 * <p>{@code socketTimeoutS}: pgjdbc socketTimeout of client connections: how long one read may wait
 * for the server before the op fails as a connection failure (0 = none, the default)
 *
 * <p>{@code stallGraceS}: how long past the end of an iteration an op may still wait for the server
 * before the stall watchdog aborts its connection (the op then fails as a connection failure)
 *
 * <p>{@code threads}: what the clients ran on (--threads), with virtual threads' pins; null in
 * results written before the knob existed
 */
public record ClientInfo(
    @JsonUnwrapped Protocol protocol,
    @JsonUnwrapped Session session,
    @JsonUnwrapped Driver driver,
    @JsonUnwrapped Connections connected,
    @JsonUnwrapped Timeouts timeouts,
    @JsonInclude(JsonInclude.Include.NON_NULL) ClientThreads threads) {

  /** The driver and how it sends statements. */
  public record Protocol(
      String pgjdbc, String queryMode, String preferQueryMode, int prepareThreshold) {}

  /** What each session ran under. */
  public record Session(
      String isolation, String sslmode, String ssl, Map<String, String> sessionSettings) {}

  /** pgjdbc properties. */
  public record Driver(
      boolean binaryTransfer,
      int fetchSize,
      boolean rewriteBatchedInserts,
      Map<String, String> jdbcProperties,
      double rttMs) {}

  /** How many clients, over how many connections. */
  public record Connections(int clients, int connections, PoolInfo pool) {}

  /** How long a read may wait for the server. */
  public record Timeouts(int socketTimeoutS, double stallGraceS) {}

  // the figures by their names in the JSON

  public String pgjdbc() {
    return protocol.pgjdbc();
  }

  public String queryMode() {
    return protocol.queryMode();
  }

  public String preferQueryMode() {
    return protocol.preferQueryMode();
  }

  public int prepareThreshold() {
    return protocol.prepareThreshold();
  }

  public String isolation() {
    return session.isolation();
  }

  public String sslmode() {
    return session.sslmode();
  }

  public String ssl() {
    return session.ssl();
  }

  public Map<String, String> sessionSettings() {
    return session.sessionSettings();
  }

  public boolean binaryTransfer() {
    return driver.binaryTransfer();
  }

  public int fetchSize() {
    return driver.fetchSize();
  }

  public boolean rewriteBatchedInserts() {
    return driver.rewriteBatchedInserts();
  }

  public Map<String, String> jdbcProperties() {
    return driver.jdbcProperties();
  }

  public double rttMs() {
    return driver.rttMs();
  }

  /** The round-trip time added, as the console and the HTML say it. */
  @JsonIgnore
  public String rttText() {
    return RoundTrip.added(rttMs());
  }

  public int clients() {
    return connected.clients();
  }

  public int connections() {
    return connected.connections();
  }

  public PoolInfo pool() {
    return connected.pool();
  }

  public int socketTimeoutS() {
    return timeouts.socketTimeoutS();
  }

  public double stallGraceS() {
    return timeouts.stallGraceS();
  }
}
