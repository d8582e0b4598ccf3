package dev.wg1bench.script;

/** Transaction-control role of a SQL command, so the executor can track transaction blocks. */
public enum TxControl {
  NONE,
  BEGIN,
  COMMIT,
  ROLLBACK
}
