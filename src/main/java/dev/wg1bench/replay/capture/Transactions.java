package dev.wg1bench.replay.capture;

import java.util.List;

/**
 * Counts transactions the way the server sees them: each BEGIN ... COMMIT/ROLLBACK block is one,
 * and so is each query string run outside a block, whatever number of statements it holds (the
 * server runs a multi-statement string in one implicit transaction, committed when the string ends
 * or at a COMMIT inside it; a BEGIN inside it turns that implicit block into an explicit one). Used
 * alike on the log and on what the replay ran, so the two counts compare.
 */
public final class Transactions {
  private Transactions() {}

  static long count(List<String> statements) {
    Counter c = new Counter();
    statements.forEach(c::add);
    return c.count;
  }

  /** Incremental form, for statements counted as they run. */
  public static final class Counter {
    private boolean inBlock;
    long count;

    /** Adds one query string as the client sent it; returns the transactions it ended. */
    public int add(String sql) {
      long before = count;
      boolean implicit = false;
      for (String part : SqlText.parts(sql)) {
        switch (StatementKind.txControl(part)) {
          case BEGIN -> {
            inBlock = true;
            implicit = false;
          }
          case END -> {
            // a COMMIT outside any block is a no-op on the server: nothing to count
            if (inBlock || implicit) {
              count++;
            }
            inBlock = false;
            implicit = false;
          }
          default -> implicit |= !inBlock;
        }
      }
      if (implicit) {
        count++;
      }
      return (int) (count - before);
    }

    public boolean inBlock() {
      return inBlock;
    }
  }
}
