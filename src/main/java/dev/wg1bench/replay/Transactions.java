package dev.wg1bench.replay;

import java.util.List;

/**
 * Counts transactions the way the server sees them: each BEGIN ... COMMIT/ROLLBACK block is one,
 * each statement outside a block is one of its own (autocommit). Used alike on the log and on what
 * the replay ran, so the two counts compare.
 */
final class Transactions {
  private Transactions() {}

  static long count(List<String> statements) {
    Counter c = new Counter();
    statements.forEach(c::add);
    return c.count;
  }

  /** Incremental form, for statements counted as they run. */
  static final class Counter {
    private boolean inBlock;
    long count;

    /** Adds a statement; true when it ended a transaction. */
    boolean add(String sql) {
      switch (SqlText.txControl(sql)) {
        case BEGIN -> inBlock = true;
        case END -> {
          // a COMMIT outside a block is a no-op on the server: nothing to count
          if (inBlock) {
            inBlock = false;
            count++;
            return true;
          }
        }
        default -> {
          if (!inBlock) {
            count++;
            return true;
          }
        }
      }
      return false;
    }

    boolean inBlock() {
      return inBlock;
    }
  }
}
