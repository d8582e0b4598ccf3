package dev.wg1bench.replay.play;

import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.replay.capture.HandMadeLogs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order between sessions waits only for transactions that share a row ({@link Footprints}):
 * session a changes row {@code t.id = 1} and commits; session b, which began after a's COMMIT ended
 * in the log, waits for that COMMIT only where its own transaction names row 1, or names no rows at
 * all; and b's UPDATE, sent while a's was still running, keeps its place behind a's only on the
 * same row.
 */
class FootprintsTest {
  @TempDir Path dir;

  private static String st(String sid, String at, String sql, String end, String ms) {
    return log(sid, at, "statement: " + sql) + log(sid, end, "duration: " + ms + " ms");
  }

  private static final TableFacts FACTS = facts(true);

  private static TableFacts facts(boolean alone) {
    Map<String, Map<String, TableFacts.Table>> tables = new HashMap<>();
    tables.put(
        null,
        Map.of(
            "t",
            new TableFacts.Table(
                "s.t", false, Set.of("id"), alone, "id", true, Map.of(), true, true),
            "k",
            TableFacts.Table.keyed("s.k", "kid", Map.of("tid", new String[] {"t", "id"})),
            "h",
            new TableFacts.Table(true, Set.of())));
    return TableFacts.of(tables);
  }

  /**
   * a: BEGIN, UPDATE row 1 (00.101-00.106), COMMIT (ends 00.108); b: its statements from 00.103.
   */
  private Schedule schedule(TableFacts facts, String bBegin, String bOverlapping, String bAfter)
      throws Exception {
    return new Schedule(
        HandMadeLogs.capture(dir, text(bBegin, bOverlapping, bAfter)).sessions(), facts);
  }

  /** The log: a's block, then b's, its BEGIN and overlapping statement given. */
  private static String text(String bBegin, String bOverlapping, String bAfter) {
    return text("UPDATE t SET x = x + 1 WHERE id = 1", bBegin, bOverlapping, bAfter);
  }

  /** The log: a's block of one statement, then b's. */
  private static String text(String a, String bBegin, String bOverlapping, String bAfter) {
    return log("1.a", "00.010", "connection authorized: user=alice database=app")
        + log("1.b", "00.011", "connection authorized: user=alice database=app")
        + st("1.a", "00.100", "BEGIN", "00.100", "0.010")
        + st("1.a", "00.101", a, "00.106", "5.000")
        + st("1.a", "00.107", "COMMIT", "00.108", "1.000")
        + st("1.b", "00.102", bBegin, "00.102", "0.010")
        + st("1.b", "00.103", bOverlapping, "00.104", "1.000")
        + st("1.b", "00.110", bAfter, "00.111", "1.000")
        + st("1.b", "00.112", "INSERT INTO h VALUES (1)", "00.112", "0.050")
        + st("1.b", "00.113", "COMMIT", "00.114", "1.000");
  }

  private Schedule schedule(String bOverlapping, String bAfter) throws Exception {
    return schedule(FACTS, "BEGIN", bOverlapping, bAfter);
  }

  /** Ends b's statement after a's COMMIT waits for (position 3: BEGIN 1, overlapping 2). */
  private static int afterNeeds(Schedule s) {
    return s.endsNeeded[1][3];
  }

  /** The COMMIT of a, by end rank, plus one: what waiting for it means. */
  private static int aCommitted(Schedule s) {
    return s.endRank[0][2] + 1;
  }

  @Test
  void anotherRowWaitsForNeitherTheCommitNorThePlace() throws Exception {
    Schedule s = schedule("UPDATE t SET x = x + 2 WHERE id = 2", "SELECT x FROM t WHERE id = 3");
    assertEquals(0, afterNeeds(s), "b's rows are not a's: a's COMMIT is not waited for");
    assertTrue(s.startsNeeded[1][2] <= s.startRank[0][2], "b's UPDATE of row 2 waits not for a's");
  }

  @Test
  void theSameRowWaitsAsTheLogOrders() throws Exception {
    Schedule s = schedule("UPDATE t SET x = x + 2 WHERE id = 1", "SELECT x FROM t WHERE id = 3");
    assertEquals(aCommitted(s), afterNeeds(s));
    assertTrue(s.startsNeeded[1][2] > s.startRank[0][2], "b's UPDATE of row 1 waits for a's");
    Schedule read =
        schedule("UPDATE t SET x = x + 2 WHERE id = 2", "SELECT x FROM t WHERE id = 01");
    assertEquals(
        aCommitted(read), afterNeeds(read), "a read of row 1, written 01, sees a's commit");
  }

  /** Two transactions that only read a row do not meet on it; a write meets a read. */
  @Test
  void readsOfOneRowMeetOnlyItsWrites() throws Exception {
    String read1 = "SELECT x FROM t WHERE id = 1";
    Schedule reads =
        new Schedule(
            HandMadeLogs.capture(dir, text(read1, "BEGIN", read1, read1)).sessions(), FACTS);
    assertEquals(0, afterNeeds(reads), "a read of row 1 waits not for another read's COMMIT");
    Schedule write =
        new Schedule(
            HandMadeLogs.capture(
                    dir, text(read1, "BEGIN", "UPDATE t SET x = 2 WHERE id = 1", read1))
                .sessions(),
            FACTS);
    assertEquals(aCommitted(write), afterNeeds(write), "b's write of row 1 waits for a's read");
  }

  /** An INSERT reads the row its foreign key references, and writes its own key's. */
  @Test
  void anInsertReadsTheRowsItsForeignKeysReference() throws Exception {
    String read3 = "SELECT x FROM t WHERE id = 3";
    Schedule other = schedule("INSERT INTO k (kid, tid, v) VALUES (7, 2, 'x,y')", read3);
    assertTrue(other.startsNeeded[1][2] <= other.startRank[0][2], "row 2 is not a's");
    Schedule same = schedule("INSERT INTO k (kid, tid, v) VALUES (7, '01', 'x')", read3);
    assertTrue(same.startsNeeded[1][2] > same.startRank[0][2], "t's row 1 is a's");
    assertEquals(
        Set.of("rnull\0s.t\0" + "2", "wnull\0s.k\0" + "7"),
        RowsTouched.of(FACTS, null, "INSERT INTO k (tid, kid) VALUES ($1, 7)", List.of("2")));
    assertEquals(
        Set.of("wnull\0s.k\0" + "7"),
        RowsTouched.of(FACTS, null, "INSERT INTO k (kid, tid) VALUES (7, NULL)", null));
    for (String insert :
        List.of(
            "INSERT INTO k (kid) VALUES (7)",
            "INSERT INTO k (tid) VALUES (1)",
            "INSERT INTO k VALUES (7, 1)",
            "INSERT INTO k (kid, tid) VALUES (7, 1), (8, 2)",
            "INSERT INTO k (kid, tid) VALUES (7, f(1))",
            "INSERT INTO k (kid, tid) VALUES (7, CURRENT_DATE)",
            "INSERT INTO k (\"kid,x\", tid) VALUES (7, 8, 1)")) {
      assertNull(RowsTouched.of(FACTS, null, insert, null), insert);
    }
  }

  @Test
  void aStatementThatCanReachOtherRowsWaitsForAll() throws Exception {
    for (String after :
        List.of(
            "SELECT x FROM t WHERE id > 1",
            "UPDATE t SET x = f(x) WHERE id = 2",
            "UPDATE t SET x = (SELECT 1) WHERE id = 2",
            "UPDATE t SET id = 1 WHERE id = 2",
            "UPDATE t SET x = DEFAULT WHERE id = 2",
            "SELECT x INTO u FROM t WHERE id = 2",
            "SELECT x FROM t WHERE id = 2 FOR UPDATE SKIP LOCKED",
            "SELECT count(*) FROM t WHERE id = 2",
            "SELECT 1")) {
      Schedule s = schedule("SELECT x FROM t WHERE id = 3", after);
      assertEquals(aCommitted(s), afterNeeds(s), after);
    }
  }

  @Test
  void noFootprintWithoutTheFactsOrUnderSerializable() throws Exception {
    String row2 = "UPDATE t SET x = x + 2 WHERE id = 2";
    Schedule shared = schedule(facts(false), "BEGIN", row2, "SELECT x FROM t WHERE id = 3");
    assertEquals(aCommitted(shared), afterNeeds(shared), "t has a trigger or a foreign key");
    Schedule ssi =
        schedule(FACTS, "BEGIN ISOLATION LEVEL SERIALIZABLE", row2, "SELECT x FROM t WHERE id = 3");
    assertEquals(aCommitted(ssi), afterNeeds(ssi), "predicate locks are coarser than rows");
    assertTrue(ssi.startsNeeded[1][2] > ssi.startRank[0][2]);
    String content = text("BEGIN", row2, "SELECT x FROM t WHERE id = 3");
    Schedule run =
        new Schedule(HandMadeLogs.capture(dir, content).sessions(), FACTS, Deadlocks.NONE, true);
    assertEquals(aCommitted(run), afterNeeds(run), "the replay runs its sessions SERIALIZABLE");
  }

  @Test
  void rowsAreNamedOneWay() {
    assertEquals(
        FACTS.onlyRow(null, "UPDATE t SET x = 'a,id=(' WHERE id = '007'", null),
        FACTS.onlyRow(null, "select x, y from T where ID = 7;", null));
    assertNull(FACTS.onlyRow(null, "DELETE FROM t WHERE id = 7.5", null), "not an integer");
    assertNull(FACTS.onlyRow(null, "UPDATE h SET x = 1 WHERE id = 7", null), "h has no key");
    // pgbench's own query at its start: a list of calls and a join, read once and let go
    assertNull(
        FACTS.onlyRow(
            null,
            "select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class as c"
                + " join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) where c.relname"
                + " = 'pgbench_accounts' and o.n is not null group by 1, 2 order by 1 asc limit 1",
            null));
    assertEquals(
        FACTS.onlyRow(null, "UPDATE t SET x = 1 WHERE id = $1", List.of("7")),
        FACTS.onlyRow(null, "SELECT * FROM t WHERE id = 7", null));
    assertEquals(
        FACTS.onlyRow(null, "DELETE FROM k WHERE kid = $1", List.of("7")),
        FACTS.onlyRow(null, "SELECT * FROM k WHERE kid = 7", null));
    assertNull(FACTS.onlyRow(null, "DELETE FROM t WHERE id = 7", null), "k references t's rows");
    assertNull(FACTS.onlyRow(null, "UPDATE k SET tid = 1 WHERE kid = 7", null), "a reference");
  }
}
