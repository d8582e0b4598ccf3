package dev.wg1bench.script;

/**
 * One SQL command.
 *
 * @param line line where the command starts
 * @param text the command as written (trimmed, without its terminating semicolon)
 * @param jdbcSql the command for {@code Connection.prepareStatement}: every {@code :var} replaced
 *     by a {@code ?} marker, and a literal {@code ?} outside quotes/comments doubled to {@code ??}
 *     (pgjdbc's escape, e.g. for jsonb operators)
 * @param paramSlots slot of the i-th {@code ?} marker
 * @param tx transaction-control role of the command
 * @param gsetPrefix null unless followed by {@code \gset [prefix]} or {@code \aset [prefix]}: then
 *     "" or the prefix; the executor stores columns into the slots of {@code prefix + columnName}
 *     (skipping columns whose name has no slot)
 * @param aset true for {@code \aset}: every query of a compound command stores every column of its
 *     rows (the last row wins; no row, no assignment); false for {@code \gset}: the first row of
 *     the result, which must have one
 */
public record SqlStep(
    int line,
    String text,
    String jdbcSql,
    int[] paramSlots,
    TxControl tx,
    String gsetPrefix,
    boolean aset)
    implements Step {

  public SqlStep(
      int line, String text, String jdbcSql, int[] paramSlots, TxControl tx, String gsetPrefix) {
    this(line, text, jdbcSql, paramSlots, tx, gsetPrefix, false);
  }
}
