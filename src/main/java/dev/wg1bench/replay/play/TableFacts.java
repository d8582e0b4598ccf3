package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.SqlText;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What the target's catalog says of the tables a log writes, read once before the clock starts: two
 * facts the statement's text alone cannot give, each letting the order between sessions keep less
 * without keeping less of what another session can see or contend with.
 *
 * <ul>
 *   <li><b>Plain</b>: an ordinary table with no unique or exclusion index, no foreign key either
 *       way, no trigger, rule or row security, and no column default that draws a sequence or calls
 *       a function of the database's own (identity and generated columns included). An INSERT of
 *       plain values into it asks for no row lock and no key, only the table's lock, which
 *       conflicts with DDL's, LOCK's and the like ({@link OrderedEvents}).
 *   <li><b>Keys</b>: the columns of an ordinary table that each alone hold a unique index (no
 *       expression, no predicate, not deferred): a {@code WHERE} of one of them equal to a value
 *       names one row ({@link LockProofs}).
 * </ul>
 *
 * A name the log writes without a schema is taken only where one table in the database bears it, so
 * a session's search_path cannot make it another. A log with DDL, LOCK or the like gets no facts
 * ({@link #forLog}): the catalog read before it describes its tables only until the first, and
 * their locks conflict with an INSERT's.
 */
final class TableFacts {
  /** No facts: every INSERT keeps its place, no grant proves an end. */
  static final TableFacts NONE = new TableFacts(new HashMap<>(), Map.of());

  private static final String QUERY =
      """
      select n.nspname, c.relname,
        not c.relhastriggers and not c.relhasrules and not c.relrowsecurity
        and not exists (select 1 from pg_index i
                        where i.indrelid = c.oid and (i.indisunique or i.indisexclusion))
        and not exists (select 1 from pg_constraint k
                        where (k.conrelid = c.oid or k.confrelid = c.oid) and k.contype in ('f', 'x'))
        and df.plain as plain,
        array(select a.attname from pg_index i
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
              where i.indrelid = c.oid and i.indisunique and i.indimmediate and i.indisvalid
                and i.indnkeyatts = 1 and i.indexprs is null and i.indpred is null
              order by a.attname) as keys,
        not c.relhasrules and not c.relrowsecurity
        and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal)
        and not exists (select 1 from pg_constraint k
                        where k.conrelid = c.oid and k.contype = 'f' and cardinality(k.conkey) <> 1)
        and not exists (select 1 from pg_inherits h where h.inhrelid = c.oid or h.inhparent = c.oid)
        and not exists (select 1 from pg_index i
                        where i.indrelid = c.oid and (i.indisexclusion
                          or i.indisunique and not (i.indimmediate and i.indisvalid
                            and i.indnkeyatts = 1 and i.indexprs is null and i.indpred is null)))
        and current_setting('default_transaction_isolation') <> 'serializable'
          as alone,
        array(select format_type(a.atttypid, null)
                     || case when exists (select 1 from pg_collation co
                                          where co.oid in (a.attcollation, i.indcollation[0])
                                            and not co.collisdeterministic)
                             then ' nondeterministic' else '' end
              from pg_index i
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
              where i.indrelid = c.oid and i.indisunique and i.indimmediate and i.indisvalid
                and i.indnkeyatts = 1 and i.indexprs is null and i.indpred is null
              order by a.attname) as key_types,
        array(select a.attname || chr(9) || pn.nspname || '.' || pc.relname || chr(9) || pa.attname
              from pg_constraint k
              join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
              join pg_class pc on pc.oid = k.confrelid
              join pg_namespace pn on pn.oid = pc.relnamespace
              join pg_attribute pa on pa.attrelid = k.confrelid and pa.attnum = k.confkey[1]
              where k.conrelid = c.oid and k.contype = 'f' and cardinality(k.conkey) = 1)
          as parents,
        exists (select 1 from pg_constraint k where k.confrelid = c.oid and k.contype = 'f')
          as referenced,
        df.plain as plain_defaults
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      cross join lateral (
        select not exists (select 1 from pg_attribute a
                           where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                             and (a.attidentity <> '' or a.attgenerated <> ''))
          and not exists (select 1 from pg_attrdef d
                          where d.adrelid = c.oid
                            and (pg_get_expr(d.adbin, d.adrelid) ~* 'nextval'
                                 or exists (select 1 from pg_depend p
                                            where p.classid = 'pg_attrdef'::regclass
                                              and p.objid = d.oid
                                              and (p.refclassid = 'pg_proc'::regclass
                                                   or p.refclassid = 'pg_class'::regclass
                                                      and p.refobjid <> c.oid))))
          as plain) df
      where c.relkind = 'r' and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      """;

  /**
   * One table's facts.
   *
   * @param name its schema and name, one way for every way a log writes it
   * @param alone no trigger of its own (a foreign key's are the server's), rule, row security,
   *     foreign key over two columns, parent or child, unique index but on one plain column,
   *     exclusion constraint, in a database whose sessions do not run SERIALIZABLE by default: a
   *     statement on one of its rows reads and locks that row only, and an UPDATE that assigns no
   *     key nor a foreign key's column waits for no other row's transaction ({@link Footprints});
   *     an index over two columns, an expression or a predicate can make it wait for a transaction
   *     that wrote the same value in another row
   * @param rowKey its one column that alone holds a unique index, where it is the only such column
   *     and of a type whose values compare as written (integers, text): a value of it names one row
   *     in one way only; else null
   * @param parents per column of a foreign key of one column: the table it references and that
   *     table's column ({@code {table, column}})
   * @param referenced whether a foreign key references it: deleting a row reads another table's
   * @param plainDefaults no column default that draws a sequence or calls a function of the
   *     database's own, no identity or generated column
   */
  record Table(
      String name,
      boolean plain,
      Set<String> keys,
      boolean alone,
      String rowKey,
      boolean integerKey,
      Map<String, String[]> parents,
      boolean referenced,
      boolean plainDefaults) {
    Table(boolean plain, Set<String> keys) {
      this(null, plain, keys, false, null, false, Map.of(), false, plain);
    }

    /** A table alone with one key (tests): {@code name} keyed by {@code rowKey}, an integer. */
    static Table keyed(String name, String rowKey, Map<String, String[]> parents) {
      return new Table(name, false, Set.of(rowKey), true, rowKey, true, parents, false, true);
    }
  }

  private static final Set<String> INTEGERS = Set.of("smallint", "integer", "bigint");

  /**
   * Key types whose equal values are written alike (integers once read as numbers); a text key
   * under a nondeterministic collation (case-insensitive, say) is not one of them.
   */
  private static final Set<String> WHOLE =
      Set.of("smallint", "integer", "bigint", "text", "character varying");

  /** Per target database (null: the URL's), per name as the log may write it. */
  private final Map<String, Map<String, Table>> byDatabase;

  /** Captured database to target database; unmapped ones go to the URL's (null). */
  private final Map<String, String> mapDatabase;

  private TableFacts(Map<String, Map<String, Table>> byDatabase, Map<String, String> mapDatabase) {
    this.byDatabase = byDatabase;
    this.mapDatabase = mapDatabase;
  }

  /** The target database a session replays into (null: the URL's). */
  String database(LoggedSession s) {
    return s.database() == null ? null : mapDatabase.get(s.database());
  }

  /** Opens a tool connection to a target database (null: the URL's). */
  interface Opener {
    Connection open(String database) throws SQLException;
  }

  /**
   * Reads the facts of each target database the sessions replay into, for their log ({@link
   * #forLog}); a database whose catalog cannot be read gets none (its statements keep every place,
   * as without facts).
   */
  static TableFacts read(
      List<LoggedSession> sessions,
      Map<String, String> mapDatabase,
      Opener opener,
      Consumer<String> note) {
    TableFacts none = new TableFacts(new HashMap<>(), mapDatabase);
    Set<String> databases = new HashSet<>();
    sessions.forEach(s -> databases.add(none.database(s)));
    Map<String, Map<String, Table>> out = new HashMap<>();
    for (String db : databases) {
      try (Connection c = opener.open(db);
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(QUERY)) {
        out.put(db, names(rs));
      } catch (SQLException e) {
        note.accept(
            "the catalog of "
                + (db == null ? "the target's database" : "database " + db)
                + " could not be read ("
                + e.getSQLState()
                + "): there every INSERT keeps its place among the starts, and each transaction's"
                + " end waits for its own reply");
      }
    }
    return new TableFacts(out, mapDatabase).forLog(sessions);
  }

  /** Facts given by hand (tests): per database, per name as the log writes it. */
  static TableFacts of(Map<String, Map<String, Table>> byDatabase) {
    return new TableFacts(new HashMap<>(byDatabase), Map.of());
  }

  private static Map<String, Table> names(ResultSet rs) throws SQLException {
    Map<String, Table> out = new HashMap<>();
    Map<String, Integer> bearers = new HashMap<>();
    Map<String, Table> unqualified = new HashMap<>();
    while (rs.next()) {
      String[] keys = (String[]) rs.getArray(4).getArray();
      String[] types = (String[]) rs.getArray(6).getArray();
      String rowKey = keys.length == 1 && WHOLE.contains(types[0]) ? keys[0] : null;
      Map<String, String[]> parents = new HashMap<>();
      for (String fk : (String[]) rs.getArray(7).getArray()) {
        String[] f = fk.split("\t", 3);
        parents.put(f[0], new String[] {f[1], f[2]});
      }
      Table t =
          new Table(
              rs.getString(1) + "." + rs.getString(2),
              rs.getBoolean(3),
              Set.of(keys),
              rs.getBoolean(5),
              rowKey,
              rowKey != null && INTEGERS.contains(types[0]),
              Map.copyOf(parents),
              rs.getBoolean(8),
              rs.getBoolean(9));
      out.put(rs.getString(1) + "." + rs.getString(2), t);
      bearers.merge(rs.getString(2), 1, Integer::sum);
      unqualified.put(rs.getString(2), t);
    }
    unqualified.forEach(
        (name, t) -> {
          if (bearers.get(name) == 1) {
            out.put(name, t);
          }
        });
    return out;
  }

  /**
   * The same facts, or none when the log changes tables or locks them whole (CREATE, ALTER, DROP,
   * TRUNCATE, LOCK, VACUUM, CLUSTER, REINDEX, REFRESH, COMMENT, SECURITY LABEL among its
   * statements, alone or in a string of several): an INSERT's table lock then conflicts with
   * another statement's, and its start keeps its place.
   */
  TableFacts forLog(List<LoggedSession> sessions) {
    for (LoggedSession s : sessions) {
      for (LoggedStatement st : s.statements()) {
        for (String part : SqlText.parts(st.sent())) {
          if (CHANGES.matcher(SqlText.stripComments(part).strip()).lookingAt()) {
            return NONE;
          }
        }
      }
    }
    return this;
  }

  private static final Pattern CHANGES =
      Pattern.compile(
          "(create|alter|drop|truncate|lock|vacuum|cluster|reindex|refresh|comment|security)\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * Whether a statement is one INSERT of plain values ({@link WriteText#plainInsertTable}) into a
   * plain table of its database.
   */
  boolean plainInsert(String database, String sql) {
    if (none(database)) {
      return false;
    }
    Table t = table(database, WriteText.plainInsertTable(sql));
    return t != null && t.plain();
  }

  /**
   * The one row an UPDATE or DELETE names ({@link WriteText#oneRow}) where its column alone holds a
   * unique index, as one string (database, table, column, value), or null.
   */
  String row(String database, String sql, List<String> parameters) {
    if (none(database)) {
      return null;
    }
    WriteText.Row r = WriteText.oneRow(sql, parameters);
    Table t = r == null ? null : table(database, r.table());
    if (t == null || !t.keys().contains(r.column())) {
      return null;
    }
    return database + "\0" + r.table() + "\0" + r.column() + "\0" + r.value();
  }

  /**
   * The one row a session's statement changes ({@link #row(String, String, List)}), or null for one
   * left out.
   */
  String row(LoggedSession s, LoggedStatement x) {
    return x.skip() == null ? row(database(s), x.sent(), x.parameters()) : null;
  }

  /**
   * The one row a statement reads or changes and nothing else, as a token that names it one way
   * ({@link Footprints}): an UPDATE that assigns no key nor a foreign key's column and calls
   * nothing, a DELETE of a row no foreign key references, or a SELECT of plain columns, each of one
   * row of a table {@link Table#alone} by its {@link Table#rowKey}; else null.
   */
  String onlyRow(String database, String sql, List<String> parameters) {
    String touched = touchedRow(database, sql, parameters);
    return touched == null ? null : touched.substring(1);
  }

  /**
   * The row of {@link #onlyRow}, led by {@link RowsTouched#READ} for a SELECT's and {@link
   * RowsTouched#WRITE} for an UPDATE's or a DELETE's; or null.
   */
  String touchedRow(String database, String sql, List<String> parameters) {
    if (none(database)) {
      return null;
    }
    WriteText.Row r = WriteText.oneRow(sql, parameters);
    boolean read = r == null;
    if (read) {
      r = WriteText.oneRowRead(sql, parameters);
    }
    Table t = r == null ? null : table(database, r.table());
    if (t == null || !t.alone() || !r.column().equals(t.rowKey())) {
      return null;
    }
    if (r.delete() ? t.referenced() : !read && !keepsItsRow(sql, t)) {
      return null;
    }
    String token = rowToken(database, t, r.value());
    return token == null ? null : (read ? RowsTouched.READ : RowsTouched.WRITE) + token;
  }

  private static boolean keepsItsRow(String sql, Table t) {
    Set<String> kept = new HashSet<>(t.keys());
    kept.addAll(t.parents().keySet());
    return WriteText.setKeepsItsRow(sql, kept);
  }

  /**
   * One row of {@code t} by a value of its {@link Table#rowKey}, as one string (database, table,
   * value: an integer as a number), or null for a value that is not one.
   */
  static String rowToken(String database, Table t, String value) {
    if (value == null) {
      return null;
    }
    if (t.integerKey()) {
      try {
        value = new BigInteger(value.strip()).toString();
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return database + "\0" + t.name() + "\0" + value;
  }

  /** Whether the database has no facts: its statements are not read at all. */
  private boolean none(String database) {
    Map<String, Table> tables = byDatabase.get(database);
    return tables == null || tables.isEmpty();
  }

  /** The table a database's log names, as the catalog spells it ({@link WriteText}), or null. */
  Table table(String database, String name) {
    Map<String, Table> tables = byDatabase.get(database);
    return tables == null || name == null ? null : tables.get(name);
  }
}
