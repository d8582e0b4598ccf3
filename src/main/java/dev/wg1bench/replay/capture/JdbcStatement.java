package dev.wg1bench.replay.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * An extended-protocol statement as pgjdbc's PreparedStatement takes it: each {@code $n} becomes a
 * {@code ?} (bound in order of appearance, so {@code $1} twice is bound twice), and a {@code ?} the
 * text had (a jsonb operator) is doubled so pgjdbc does not take it for a placeholder.
 *
 * @param sql the text for prepareStatement
 * @param order for each placeholder in order, the number n of its {@code $n}
 */
public record JdbcStatement(String sql, int[] order) {
  /** {@code sql} with its {@code $n} as pgjdbc's {@code ?}. */
  public static JdbcStatement of(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    List<Integer> order = new ArrayList<>();
    int i = 0;
    int len = sql.length();
    while (i < len) {
      int n = SqlText.parameterEnd(sql, i);
      if (n > i) {
        order.add(SqlText.parameter(sql, i, n));
        out.append('?');
        i = n;
      } else if (sql.charAt(i) == '?') {
        out.append("??");
        i++;
      } else {
        int end = Math.max(i + 1, SqlText.opaqueEnd(sql, i));
        out.append(sql, i, end);
        i = end;
      }
    }
    return new JdbcStatement(out.toString(), order.stream().mapToInt(Integer::intValue).toArray());
  }
}
