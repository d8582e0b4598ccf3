package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.replay.capture.HandMadeLogs;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the target's catalog says of a log's tables, read from a real server: an INSERT of plain
 * values keeps no place only in a table where it can wait for nothing and draws nothing another
 * session sees; a {@code WHERE} names one row only on a column that alone holds a unique index.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TableFactsTest {
  private static final String S = "table_facts_test";
  private TableFacts facts;

  @TempDir Path dir;

  @BeforeAll
  void tables() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + S + ", " + S + "_b CASCADE");
      st.execute("CREATE SCHEMA " + S);
      st.execute("CREATE SCHEMA " + S + "_b");
      st.execute("CREATE TABLE " + S + "_b.twice (x int)");
      st.execute("CREATE TABLE twice (x int)");
      st.execute("SET search_path = " + S);
      st.execute(
          "CREATE TABLE history (tid int, bid int, delta int, mtime timestamp default now())");
      st.execute("CREATE TABLE \"Mixed\" (x int)");
      st.execute("CREATE TABLE branches (bid int PRIMARY KEY, bbalance int, code text UNIQUE)");
      st.execute("CREATE TABLE pair (a int, b int, UNIQUE (a, b))");
      st.execute("CREATE TABLE indexed (x int)");
      st.execute("CREATE UNIQUE INDEX ON indexed ((x + 1))");
      st.execute("CREATE TABLE partial (x int)");
      st.execute("CREATE UNIQUE INDEX ON partial (x) WHERE x > 0");
      st.execute("CREATE TABLE deferred (x int UNIQUE DEFERRABLE INITIALLY DEFERRED)");
      st.execute("CREATE TABLE child (bid int REFERENCES branches)");
      st.execute("CREATE TABLE serial (id serial, x int)");
      st.execute("CREATE TABLE identity (id int GENERATED ALWAYS AS IDENTITY, x int)");
      st.execute("CREATE TABLE triggered (x int)");
      st.execute(
          "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$");
      st.execute("CREATE TRIGGER t BEFORE INSERT ON triggered FOR EACH ROW EXECUTE FUNCTION f()");
      st.execute("CREATE FUNCTION g() RETURNS int LANGUAGE sql AS 'SELECT 1'");
      st.execute("CREATE TABLE defaulted (x int DEFAULT g())");
      st.execute("CREATE TABLE ruled (x int)");
      st.execute("CREATE RULE r AS ON INSERT TO ruled DO ALSO NOTIFY ruled");
      st.execute("CREATE TABLE excluded (x int, EXCLUDE USING btree (x WITH =))");
      st.execute("CREATE TABLE table_facts_only_here (x int)");
      st.execute("CREATE TABLE accounts (aid int PRIMARY KEY, abalance int, filler text)");
      st.execute("CREATE TABLE keyed_pair (id int PRIMARY KEY, a int, b int, UNIQUE (a, b))");
      st.execute("CREATE TABLE keyed_lower (id int PRIMARY KEY, email text)");
      st.execute("CREATE UNIQUE INDEX ON keyed_lower (lower(email))");
      st.execute("CREATE TABLE keyed_partial (id int PRIMARY KEY, x int)");
      st.execute("CREATE UNIQUE INDEX ON keyed_partial (x) WHERE x > 0");
      st.execute("CREATE TABLE keyed_deferred (id int PRIMARY KEY, x int)");
      st.execute("CREATE UNIQUE INDEX ON keyed_deferred (x, id)");
      st.execute("CREATE TABLE keyed_excluded (id int PRIMARY KEY, r int)");
      st.execute("ALTER TABLE keyed_excluded ADD EXCLUDE USING btree (r WITH =)");
      st.execute(
          "CREATE COLLATION folded (provider = icu, locale = 'und-u-ks-level2',"
              + " deterministic = false)");
      st.execute("CREATE TABLE keyed_folded (id text COLLATE folded PRIMARY KEY, x int)");
      st.execute("CREATE TABLE keyed_text (id text PRIMARY KEY, x int)");
      st.execute("CREATE TABLE keyed_parent (id int PRIMARY KEY, x int)");
      st.execute("CREATE TABLE keyed_child (id int PRIMARY KEY, aid int REFERENCES keyed_parent)");
      st.execute("CREATE TABLE keyed_triggered (id int PRIMARY KEY, x int)");
      st.execute(
          "CREATE TRIGGER t BEFORE UPDATE ON keyed_triggered FOR EACH ROW EXECUTE FUNCTION f()");
    }
    // one session, replayed into the URL's database (no --map-database)
    var sessions =
        oneStatement(Files.createTempDirectory("table-facts-"), "INSERT INTO h VALUES (1)");
    List<String> notes = new ArrayList<>();
    facts = TableFacts.read(sessions, Map.of(), db -> TestServer.connect(), notes::add);
    assertEquals(List.of(), notes);
    assertNull(facts.database(sessions.get(0)));
  }

  @AfterAll
  void drop() throws Exception {
    try (Connection c = TestServer.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + S + ", " + S + "_b CASCADE");
    }
  }

  private boolean plain(String sql) {
    return facts.plainInsert(null, sql);
  }

  @Test
  void anInsertOfPlainValuesIntoATableWithoutKeysTriggersOrSequencesIsPlain() {
    assertTrue(
        plain(
            "INSERT INTO "
                + S
                + ".history (tid, bid, delta, mtime)"
                + " VALUES (1, 1, -5, CURRENT_TIMESTAMP);"));
    assertTrue(plain("insert into " + S + ".history values ($1, $2, $3, $4)"));
    assertTrue(plain("/* app */ INSERT INTO " + S + ".history VALUES (1, 2, 3), (4, '(x)', 6)"));
    assertTrue(plain("INSERT INTO " + S + ".\"Mixed\" VALUES (1)"));
    // the name alone: one table in the database bears it, so no search_path makes it another
    assertTrue(plain("INSERT INTO table_facts_only_here VALUES (1)"));
    assertFalse(plain("INSERT INTO " + S + ".mixed VALUES (1)"), "folds to another name");
  }

  @Test
  void whatCanWaitOrBeSeenKeepsItsPlace() {
    for (String t :
        List.of(
            "branches",
            "pair",
            "indexed",
            "partial",
            "deferred",
            "child",
            "serial",
            "identity",
            "triggered",
            "defaulted",
            "ruled",
            "excluded")) {
      assertFalse(plain("INSERT INTO " + S + "." + t + " VALUES (1)"), t);
    }
    // a referenced table: a child's foreign key locks its row
    assertFalse(plain("INSERT INTO " + S + ".branches (bid) VALUES (7)"));
    String h = "INSERT INTO " + S + ".history ";
    assertFalse(plain(h + "VALUES (nextval('s'), 1, 1)"), "a call");
    assertFalse(plain(h + "SELECT 1, 1, 1"), "a query");
    assertFalse(plain(h + "VALUES (1, 1, 1) RETURNING tid"), "returning");
    assertFalse(plain(h + "VALUES (1, 1, 1) ON CONFLICT DO NOTHING"), "on conflict");
    assertFalse(plain(h + "VALUES ($$x$$, 1, 1)"), "a dollar quote");
    assertFalse(plain("BEGIN; " + h + "VALUES (1, 1, 1)"), "a string of several");
    assertFalse(plain("INSERT INTO twice VALUES (1)"), "a name two schemas bear");
    assertTrue(plain("INSERT INTO " + S + "_b.twice VALUES (1)"));
    assertFalse(plain("INSERT INTO no_such_table VALUES (1)"));
    assertFalse(facts.plainInsert("otherdb", h + "VALUES (1, 1, 1)"), "a database not read");
  }

  @Test
  void aWhereOnAKeyColumnAloneNamesOneRow() {
    String b = S + ".branches";
    assertEquals(
        "null\0" + b + "\0bid\0" + "1",
        facts.row(null, "UPDATE " + b + " SET bbalance = bbalance + -5 WHERE bid = 1;", null));
    assertEquals(
        facts.row(null, "UPDATE " + b + " SET bbalance = bbalance + 5 WHERE bid = 1", null),
        facts.row(null, "update " + b + " set bbalance = $1 where bid = $2", List.of("9", "1")));
    assertEquals(
        facts.row(null, "DELETE FROM " + b + " WHERE code = 'it''s'", null),
        facts.row(null, "DELETE FROM " + b + " WHERE \"code\" = $1", List.of("it's")));
    assertNull(facts.row(null, "UPDATE " + b + " SET bbalance = 0 WHERE bbalance = 1", null));
    assertNull(facts.row(null, "UPDATE " + b + " SET bbalance = 0 WHERE bid = 1 AND 1=1", null));
    assertNull(facts.row(null, "UPDATE " + b + " SET x = 0 FROM t WHERE bid = 1", null));
    assertNull(facts.row(null, "UPDATE " + S + ".pair SET b = 0 WHERE a = 1", null), "two columns");
    assertNull(facts.row(null, "UPDATE " + S + ".partial SET x = 0 WHERE x = 1", null));
    assertNull(facts.row(null, "UPDATE " + S + ".deferred SET x = 0 WHERE x = 1", null));
    assertNull(facts.row(null, "UPDATE " + b + " SET bbalance = 0 WHERE bid = $1", null));
    assertNull(facts.row(null, "SELECT * FROM " + b + " WHERE bid = 1 FOR UPDATE", null));
  }

  /**
   * A statement names one row only where nothing else of its table can make it meet another: an
   * UPDATE of a table with a unique index over two columns, an expression or a predicate, or an
   * exclusion constraint, can wait for another row's transaction on that index; a trigger can read
   * or lock any row; a foreign key's reference changed, or a referenced row deleted, reads another
   * table's.
   */
  @Test
  void aRowIsOnlyItsOwnWhereNoIndexKeyOrTriggerOfTheTableMeetsAnother() {
    String a = S + ".accounts";
    named(a, "3", "UPDATE " + a + " SET abalance = abalance + 1 WHERE aid = 3");
    named(a, "3", "SELECT abalance FROM " + a + " WHERE aid = 3");
    for (String t :
        List.of(
            "keyed_pair",
            "keyed_lower",
            "keyed_partial",
            "keyed_deferred",
            "keyed_excluded",
            "keyed_triggered")) {
      String u = "UPDATE " + S + "." + t + " SET ";
      for (String column : List.of("a", "email", "x", "r", "aid")) {
        assertNull(facts.onlyRow(null, u + column + " = 1 WHERE id = 3", null), t + " " + column);
      }
      assertNull(facts.onlyRow(null, "DELETE FROM " + S + "." + t + " WHERE id = 3", null), t);
    }
    // 'A' and 'a' are one key under a case-folding collation: the text written is not the row
    named(S + ".keyed_text", "A", "UPDATE " + S + ".keyed_text SET x = 1 WHERE id = 'A'");
    assertNull(facts.onlyRow(null, "UPDATE " + S + ".keyed_folded SET x = 1 WHERE id = 'A'", null));
    // a foreign key: a child's reference is not changed, a referenced row not deleted
    String p = S + ".keyed_parent";
    String k = S + ".keyed_child";
    named(p, "3", "UPDATE " + p + " SET x = 1 WHERE id = 3");
    assertNull(facts.onlyRow(null, "DELETE FROM " + p + " WHERE id = 3", null), "referenced");
    assertNull(facts.onlyRow(null, "UPDATE " + k + " SET aid = 1 WHERE id = 3", null));
    named(k, "3", "DELETE FROM " + k + " WHERE id = 3");
    assertEquals(
        java.util.Set.of("rnull\0" + p + "\0" + "5", "wnull\0" + k + "\0" + "3"),
        RowsTouched.of(facts, null, "INSERT INTO " + k + " (id, aid) VALUES (3, 5)", null));
  }

  /** Asserts that {@code sql} names one row of {@code table}, the one of key {@code value}. */
  private void named(String table, String value, String sql) {
    assertEquals("null\0" + table + "\0" + value, facts.onlyRow(null, sql, null), sql);
  }

  @Test
  void aCatalogThatCannotBeReadGivesNoFactsAndSaysSo() throws Exception {
    List<String> notes = new ArrayList<>();
    var sessions =
        HandMadeLogs.capture(
                dir, log("1.a", "00.010", "connection authorized: user=alice database=app"))
            .sessions();
    TableFacts none =
        TableFacts.read(
            sessions,
            Map.of("app", "elsewhere"),
            db -> {
              throw new java.sql.SQLException("no such database", "3D000");
            },
            notes::add);
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(
        notes.get(0).startsWith("the catalog of database elsewhere could not be read (3D000)"));
    assertEquals("elsewhere", none.database(sessions.get(0)));
    assertFalse(none.plainInsert("elsewhere", "INSERT INTO " + S + ".history VALUES (1)"));
  }

  /**
   * The regression SQL's INSERTs carry literals of megabytes: a pattern looping over a group per
   * character overflowed the stack on them.
   */
  @Test
  void aStatementOfMegabytesIsReadInOnePass() {
    String big = "x".repeat(4_000_000);
    String h = "INSERT INTO " + S + ".history VALUES ";
    assertTrue(plain(h + "(1, 1, 1, '" + big + "')"));
    assertTrue(plain(h + "(1, 'a''b', 2),".repeat(200_000) + "(2, 'c', 3);"));
    assertFalse(plain(h + "(1, 1, 1, '" + big + "', f(1))"));
    String b = "UPDATE " + S + ".branches SET ";
    assertEquals(
        "null\0" + S + ".branches\0bid\0" + "7",
        facts.row(null, b + "code = '" + big + "' WHERE bid = 7", null));
    assertNull(facts.row(null, b + "bbalance = 0 WHERE code = '" + big + "'", null));
  }

  @Test
  void aLogThatChangesOrLocksTablesGetsNoFacts() throws Exception {
    for (String sql :
        List.of(
            "CREATE INDEX ON h (x)",
            "alter table h add y int",
            "BEGIN; DROP TABLE h",
            "LOCK TABLE h",
            "TRUNCATE h")) {
      assertSame(TableFacts.NONE, facts.forLog(oneStatement(dir, sql)), sql);
    }
    assertSame(facts, facts.forLog(oneStatement(dir, "INSERT INTO h VALUES (1)")));
  }

  /** A log of one session of app, connected, then running {@code sql}. */
  private static List<LoggedSession> oneStatement(Path dir, String sql) throws Exception {
    return HandMadeLogs.capture(
            dir,
            log("1.a", "00.010", "connection authorized: user=alice database=app")
                + log("1.a", "00.100", "statement: " + sql))
        .sessions();
  }
}
