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
 * @param textPieces the command as pgbench -M simple sends it, split at its variables: the text
 *     between them ({@code paramSlots.length + 1} pieces, no {@code ?} escaping), into which each
 *     variable's value is substituted as text
 * @param paramNames name of the i-th variable, for messages and for an unset one, which pgbench
 *     leaves as written in simple mode
 */
public record SqlStep(
    int line,
    String text,
    String jdbcSql,
    int[] paramSlots,
    TxControl tx,
    String gsetPrefix,
    boolean aset,
    String[] textPieces,
    String[] paramNames)
    implements Step {

  /** The command with each variable's value substituted as text, as pgbench -M simple does. */
  public String substituted(Object[] slots) {
    StringBuilder sb = new StringBuilder(textPieces[0]);
    for (int k = 0; k < paramSlots.length; k++) {
      Object v = slots[paramSlots[k]];
      if (v == Values.UNDEFINED) {
        sb.append(':').append(paramNames[k]);
      } else {
        sb.append(Values.toText(v));
      }
      sb.append(textPieces[k + 1]);
    }
    return sb.toString();
  }
}
