package dev.wg1bench.replay.play;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows one statement reads and the rows it writes, each named one way ({@link
 * TableFacts#rowToken}) and marked {@link #READ} or {@link #WRITE}, for {@link Footprints}. Two
 * transactions that only read a row do not meet on it: neither can see what the other did there,
 * nor wait for it (a plain SELECT takes no row lock; a foreign key's check takes a share lock that
 * only a DELETE or a key's change conflicts with, and both write the row).
 *
 * <ul>
 *   <li>an UPDATE or DELETE of one row by its key ({@link TableFacts#onlyRow}) writes it;
 *   <li>a SELECT of plain columns of one row by its key reads it;
 *   <li>an INSERT of one tuple of plain values, with a column list, into a table {@link
 *       TableFacts.Table#alone} whose defaults call nothing writes its key's row, if it has a key,
 *       and reads the row each of its foreign keys references (pgbench's history with {@code
 *       --foreign-keys}: the account, teller and branch of the transaction).
 * </ul>
 *
 * Any other statement names none (null): it can see or lock any row.
 */
final class RowsTouched {
  static final char READ = 'r';
  static final char WRITE = 'w';

  private RowsTouched() {}

  /** The rows statement {@code sql} reads and writes, each token led by READ or WRITE; or null. */
  static Set<String> of(TableFacts facts, String database, String sql, List<String> parameters) {
    String row = facts.touchedRow(database, sql, parameters);
    if (row != null) {
      return Set.of(row);
    }
    return inserted(facts, database, sql, parameters);
  }

  private static Set<String> inserted(
      TableFacts facts, String database, String sql, List<String> parameters) {
    TableFacts.Table t = facts.table(database, WriteText.plainInsertTable(sql));
    if (t == null
        || !t.alone()
        || !t.plainDefaults()
        || !t.keys().isEmpty() && t.rowKey() == null) {
      return null;
    }
    Map<String, String> values = WriteText.insertedValues(sql);
    if (values == null) {
      return null;
    }
    Set<String> out = new HashSet<>();
    if (t.rowKey() != null) {
      String key = WriteText.literal(values.get(t.rowKey()), parameters);
      String token = TableFacts.rowToken(database, t, key);
      if (token == null) {
        return null; // a key drawn elsewhere, or one the text does not give
      }
      out.add(WRITE + token);
    }
    for (Map.Entry<String, String[]> fk : t.parents().entrySet()) {
      String written = values.get(fk.getKey());
      if (written == null) {
        return null; // a column left to its default: the row it references is not in the text
      }
      if (written.equalsIgnoreCase("null")) {
        continue; // no row to check
      }
      TableFacts.Table parent = facts.table(database, fk.getValue()[0]);
      String token =
          parent == null || !fk.getValue()[1].equals(parent.rowKey())
              ? null
              : TableFacts.rowToken(database, parent, WriteText.literal(written, parameters));
      if (token == null) {
        return null;
      }
      out.add(READ + token);
    }
    return out;
  }
}
