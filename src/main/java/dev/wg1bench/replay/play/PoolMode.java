package dev.wg1bench.replay.play;

import java.util.Locale;

/** How replayed sessions share a --pool-size pool, as PgBouncer's pool modes do. */
public enum PoolMode {
  /**
   * A session holds one connection from its start to its end, and the connection is rolled back if
   * need be and reset (DISCARD ALL) before the next session gets it: every session keeps its own
   * state (SET, temporary tables, prepared statements), so outcomes stay the log's.
   */
  SESSION,
  /**
   * A session holds a connection for one transaction (a statement outside a block, or a whole
   * block) and gives it back between transactions without a reset, as PgBouncer's transaction mode:
   * session state does not follow a session, and may leak to another one.
   */
  TRANSACTION;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static PoolMode parse(String text) {
    for (PoolMode m : values()) {
      if (m.cliName().equalsIgnoreCase(text.strip())) {
        return m;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of session, transaction");
  }
}
