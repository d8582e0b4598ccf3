package dev.wg1bench.replay.capture;

import java.time.Instant;
import java.util.List;

/**
 * A client session rebuilt from a log: who it was, when it connected and disconnected, and what it
 * ran in order.
 *
 * @param id the log's session id (%c)
 * @param connected when it connected (connection authorized), else its first statement
 * @param disconnected when it disconnected, or null when the log never says (log_disconnections
 *     off, the log ends first, or the server crashed)
 */
public record LoggedSession(
    String id,
    String user,
    String database,
    String applicationName,
    Instant connected,
    Instant disconnected,
    List<LoggedStatement> statements) {

  /**
   * Explicit blocks closed plus query strings outside any block: the log's transactions, of the
   * statements a replay sends (those it cannot replay are counted apart), so the two compare.
   */
  public long transactions() {
    return Transactions.count(
        statements.stream().filter(s -> s.skip() == null).map(LoggedStatement::sql).toList());
  }
}
