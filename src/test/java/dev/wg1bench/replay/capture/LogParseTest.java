package dev.wg1bench.replay.capture;

import static dev.wg1bench.replay.capture.HandMadeLogs.csv;
import static dev.wg1bench.replay.capture.HandMadeLogs.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.log.LogFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log formats, session rebuilding, and each kind of bad input, on small hand-made logs. */
class LogParseTest {
  @TempDir Path dir;

  private Capture read(String name, byte[] content, Selection sel) throws IOException {
    Path f = dir.resolve(name);
    Files.write(f, content);
    return new CaptureBuilder(null, null, sel).read(f).build();
  }

  private Capture read(String name, String content) throws IOException {
    return read(name, content.getBytes(StandardCharsets.UTF_8), Selection.all());
  }

  private static final String SESSION =
      log("1.a", "00.000", "connection authorized: user=alice database=app application_name=psql")
          + log("1.a", "00.100", "statement: BEGIN")
          + log("1.a", "00.200", "statement: SELECT *\n  FROM t\n WHERE x = 'a,\"b'")
          + csv(
              "00.300",
              "1.a",
              "LOG",
              "00000",
              "execute <unnamed>: UPDATE t SET y = $1 WHERE x = $2",
              "Parameters: $1 = 'it''s', $2 = NULL",
              null,
              "psql",
              "client backend")
          + log("1.a", "00.310", "duration: 1.500 ms")
          + log("1.a", "00.400", "statement: SELECT 1/0")
          + csv(
              "00.401",
              "1.a",
              "ERROR",
              "22012",
              "division by zero",
              null,
              "SELECT 1/0",
              "psql",
              "client backend")
          + log("1.a", "00.500", "statement: ROLLBACK")
          + log(
              "1.a", "01.000", "disconnection: session time: 0:00:01.000 user=alice database=app");

  @Test
  void csvlogSessionsParametersMultiLineAndErrors() throws IOException {
    Capture c = read("a.csv", SESSION);
    assertEquals(1, c.sessions().size());
    LoggedSession s = c.sessions().get(0);
    assertEquals("alice", s.user());
    assertEquals("app", s.database());
    assertEquals("psql", s.applicationName());
    assertEquals(Duration.ofSeconds(1), Duration.between(s.connected(), s.disconnected()));
    List<LoggedStatement> st = s.statements();
    assertEquals(5, st.size(), st.toString());
    assertEquals("SELECT *\n  FROM t\n WHERE x = 'a,\"b'", st.get(1).sql());
    assertNull(st.get(1).parameters());
    assertEquals("UPDATE t SET y = $1 WHERE x = $2", st.get(2).sql());
    assertEquals(Arrays.asList("it's", null), st.get(2).parameters());
    assertEquals(1.5, st.get(2).logDurationMs());
    assertEquals("22012", st.get(3).logSqlState());
    assertEquals(1, s.transactions());
    assertEquals(java.util.Map.of("22012", 1L), c.logErrors());
    assertEquals(0, c.problems().skippedLines());
  }

  @Test
  void jsonlogReadsTheSameSession() throws IOException {
    String json =
        "{\"timestamp\":\"2024-05-01 12:00:00.000 UTC\",\"user\":\"alice\",\"dbname\":\"app\","
            + "\"session_id\":\"1.a\",\"error_severity\":\"LOG\",\"message\":\"connection"
            + " authorized: user=alice database=app\",\"backend_type\":\"client backend\"}\n"
            + "{\"timestamp\":\"2024-05-01 12:00:00.300 UTC\",\"user\":\"alice\",\"dbname\":\"app\","
            + "\"session_id\":\"1.a\",\"error_severity\":\"LOG\",\"message\":\"execute S_1: SELECT"
            + " $1::int\\n + 1\",\"detail\":\"parameters: $1 = '41'\",\"application_name\":\"jdbc\","
            + "\"backend_type\":\"client backend\"}\n"
            + "{\"timestamp\":\"2024-05-01 12:00:00.400 UTC\",\"user\":\"alice\",\"dbname\":\"app\","
            + "\"session_id\":\"1.a\",\"error_severity\":\"ERROR\",\"state_code\":\"42P01\","
            + "\"message\":\"relation \\\"x\\\" does not exist\",\"statement\":\"SELECT $1::int\\n"
            + " + 1\",\"backend_type\":\"client backend\"}\n";
    Capture c = read("a.json", json);
    assertEquals("jsonlog", c.formats().values().iterator().next());
    LoggedStatement st = c.sessions().get(0).statements().get(0);
    assertEquals("SELECT $1::int\n + 1", st.sql());
    assertEquals(List.of("41"), st.parameters());
    assertEquals("42P01", st.logSqlState());
    assertEquals("jdbc", c.sessions().get(0).applicationName());
  }

  @Test
  void stderrWithPrefixContinuationAndDetailLines() throws IOException {
    String p1 = "2024-05-01 12:00:00.100 UTC|alice|app|6630a1b2.1f3c|";
    String p2 = "2024-05-01 12:00:00.150 UTC|bob|app|6630a1b2.1f3d|";
    String text =
        p1
            + "LOG:  statement: SELECT 1,\n"
            + "\t2\n"
            + p2
            + "LOG:  execute <unnamed>: SELECT $1\n"
            + p2
            + "DETAIL:  parameters: $1 = 'x'\n"
            + p1
            + "LOG:  disconnection: session time: 0:00:00.100 user=alice database=app\n";
    Capture c = read("postgresql.log", text);
    assertEquals("stderr", c.formats().values().iterator().next());
    assertEquals(2, c.sessions().size());
    assertEquals("SELECT 1,\n2", c.sessions().get(0).statements().get(0).sql());
    assertEquals("alice", c.sessions().get(0).user());
    assertEquals(List.of("x"), c.sessions().get(1).statements().get(0).parameters());
    assertEquals(1, c.sessionsWithoutEnd(), "bob's session never ends in this log");
  }

  @Test
  void stderrPrefixWithoutSessionIdIsAUsageError() {
    Path f = dir.resolve("x.log");
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> {
              Files.writeString(f, "2024-05-01 12:00:00 UTC [1] LOG:  statement: SELECT 1\n");
              new CaptureBuilder(LogFormat.STDERR, "%t [%p] ", Selection.all()).read(f);
            });
    assertTrue(e.getMessage().startsWith("--log-line-prefix must carry %c"), e.getMessage());
  }

  @Test
  void anotherFormatIsReportedWithFileAndLine() {
    UsageException e =
        assertThrows(UsageException.class, () -> read("app.log", "just some text\nmore\n"));
    assertTrue(
        e.getMessage().startsWith("app.log:1: not a csvlog, jsonlog or stderr log"),
        e.getMessage());
  }

  @Test
  void truncatedLastLineIsSkippedAndCounted() throws IOException {
    String cut = log("1.a", "00.600", "statement: SELECT 'never ends");
    cut = cut.substring(0, cut.indexOf("never") + 5); // cut inside the quoted message
    // SESSION is 11 lines, its multi-line statement counting 3
    Capture c = read("cut.csv", SESSION + cut);
    assertEquals(5, c.statements());
    assertEquals(1, c.problems().skippedLines());
    assertEquals(
        List.of("cut.csv:12: record cut off at the end of the file; left out"),
        c.problems().messages());

    String json = "{\"timestamp\":\"2024-05-01 12:00:00.000 UTC\",\"session_id\":\"1.a\",\"mess";
    Capture j = read("cut.json", json);
    assertEquals(1, j.problems().skippedLines());
    assertTrue(j.problems().messages().get(0).startsWith("cut.json:1: record cut off"));
  }

  @Test
  void missingParametersLeaveTheStatementOutWithFileAndLine() throws IOException {
    String text =
        log("1.a", "00.000", "statement: SELECT 1")
            + log("1.a", "00.100", "execute <unnamed>: SELECT * FROM t WHERE x = $1")
            + log("1.a", "00.200", "execute <unnamed>: SELECT now()");
    Capture c = read("p.csv", text);
    assertEquals(2, c.statements(), "the statement without its value is left out");
    assertEquals(List.of(), c.sessions().get(0).statements().get(1).parameters());
    assertEquals(1L, c.leftOut().get(CaptureBuilder.LEFT_PARAMETERS));
    assertEquals(1, c.problems().skippedLines());
    assertTrue(c.problems().messages().get(0).startsWith("p.csv:2: statement with $1 but no"));
  }

  @Test
  void sessionThatNeverEndsIsKeptAndCounted() throws IOException {
    String text =
        log("1.a", "00.000", "connection authorized: user=alice database=app")
            + log("1.a", "00.100", "statement: SELECT 1");
    Capture c = read("open.csv", text);
    assertEquals(1, c.sessions().size());
    assertNull(c.sessions().get(0).disconnected());
    assertEquals(1, c.sessionsWithoutEnd());
  }

  @Test
  void nonUtf8BytesSkipTheirRecordWithFileAndLine() throws IOException {
    byte[] good = SESSION.getBytes(StandardCharsets.UTF_8);
    byte[] bad =
        log("2.b", "00.050", "statement: SELECT 'caf\u00e9'").getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[bad.length + good.length];
    System.arraycopy(bad, 0, all, 0, bad.length);
    System.arraycopy(good, 0, all, bad.length, good.length);
    Capture c = read("latin1.csv", all, Selection.all());
    assertEquals(5, c.statements());
    assertEquals(1, c.problems().skippedLines());
    assertTrue(c.problems().messages().get(0).startsWith("latin1.csv:1: bytes that are not UTF-8"));
  }

  @Test
  void ownSessionsLoggingSettingsAndBackgroundProcessesAreLeftOutAndCounted() throws IOException {
    String text =
        csv(
                "00.000",
                "9.a",
                "LOG",
                "00000",
                "statement: SELECT 1",
                null,
                null,
                "wg1bench",
                "client backend")
            + log("1.a", "00.100", "statement: ALTER SYSTEM SET log_statement = 'all'")
            + log("1.a", "00.200", "statement: select pg_reload_conf()")
            + log("1.a", "00.300", "statement: SET log_min_duration_statement = 0")
            + log("1.a", "00.400", "statement: SELECT 2")
            + csv(
                "00.500",
                "7.a",
                "LOG",
                "00000",
                "automatic vacuum of table \"app.public.t\"",
                null,
                null,
                "",
                "autovacuum worker");
    Capture c = read("m.csv", text);
    assertEquals(1, c.statements());
    assertEquals(1L, c.leftOut().get(CaptureBuilder.LEFT_OWN));
    assertEquals(3L, c.leftOut().get(CaptureBuilder.LEFT_LOGGING));
    assertEquals(1L, c.leftOut().get(CaptureBuilder.LEFT_BACKGROUND));
  }

  @Test
  void durationOnlyLogTimesStatementsFromTheirStart() throws IOException {
    String text =
        log("1.a", "01.000", "duration: 250.000 ms  statement: SELECT pg_sleep(0.25)")
            + log("1.a", "01.100", "duration: 0.100 ms  parse <unnamed>: SELECT $1")
            + csv(
                "01.200",
                "1.a",
                "LOG",
                "00000",
                "duration: 0.200 ms  execute <unnamed>: SELECT $1",
                "parameters: $1 = '7'",
                null,
                "psql",
                "client backend");
    Capture c = read("d.csv", text);
    List<LoggedStatement> st = c.sessions().get(0).statements();
    assertEquals(2, st.size(), "parse is part of the execute, not a statement");
    assertEquals(java.time.Instant.parse("2024-05-01T12:00:00.750Z"), st.get(0).time());
    assertEquals(250.0, st.get(0).logDurationMs());
    assertEquals(List.of("7"), st.get(1).parameters());
    assertEquals(2, c.durationsLogged());
  }

  @Test
  void selectionKeepsSessionsByDatabaseUserAndApplication() throws IOException {
    String text =
        log("1.a", "00.000", "statement: SELECT 1")
            + csv(
                "00.100",
                "2.a",
                "LOG",
                "00000",
                "statement: SELECT 2",
                null,
                null,
                "batch",
                "client backend");
    Selection onlyBatch =
        new Selection(
            java.util.Set.of(), java.util.Set.of(), java.util.Set.of("batch"), java.util.Map.of());
    Capture c = read("s.csv", text.getBytes(StandardCharsets.UTF_8), onlyBatch);
    assertEquals(1, c.sessions().size());
    assertEquals("SELECT 2", c.sessions().get(0).statements().get(0).sql());
    assertEquals(1, c.sessionsNotSelected());
  }

  @Test
  void normalizedTextGroupsStatementsLikePgStatStatements() {
    assertEquals(
        "UPDATE t SET a = a + $1 WHERE id = $2",
        SqlNormalizer.normalize("UPDATE t SET a = a + -42 WHERE id = 7;"));
    assertEquals(
        "SELECT $1, $2, $3 FROM t1 WHERE x = $4 AND \"c1\" = $5",
        SqlNormalizer.normalize(
            "SELECT 'it''s', E'a\\'b', $$x$$ FROM t1 -- c\n WHERE x = $1 AND \"c1\" = 1.5e-3"));
    assertEquals("SELECT x - $1", SqlNormalizer.normalize("SELECT x - 1"));
    assertEquals(
        StatementKind.TxControl.BEGIN,
        StatementKind.txControl("start transaction isolation level serializable"));
    assertEquals(StatementKind.TxControl.END, StatementKind.txControl("END;"));
    assertEquals(StatementKind.TxControl.NONE, StatementKind.txControl("ROLLBACK TO SAVEPOINT a"));
    assertEquals(2, SqlText.highestParameter("SELECT '$3', $1 + $2"));
  }

  @Test
  void extendedStatementsBecomeJdbcPlaceholdersInOrder() {
    JdbcStatement j = JdbcStatement.of("SELECT $2, '$1', data ? 'k', $1, $2");
    assertEquals("SELECT ?, '$1', data ?? 'k', ?, ?", j.sql());
    assertEquals(List.of(2, 1, 2), Arrays.stream(j.order()).boxed().toList());
  }

  @Test
  void parametersDetailIsReadStrictly() {
    assertEquals(
        Arrays.asList("1", null, "a, $2 = 'b"),
        ParametersDetail.parse("parameters: $1 = '1', $2 = NULL, $3 = 'a, $2 = ''b'"));
    assertNull(ParametersDetail.parse("parameters: $1 = '1', $3 = '2'"));
    assertNull(ParametersDetail.parse("parameters: $1 = 'unterminated"));
    List<String> none = new ArrayList<>();
    assertEquals(none, ParametersDetail.parse(""));
  }

  @Test
  void statementsThatChangeDataAreTold() {
    assertEquals("INSERT", StatementKind.dataChange("insert into t values (1)"));
    assertEquals("UPDATE", StatementKind.dataChange("/* app */ UPDATE t SET a = 1"));
    assertEquals("DELETE", StatementKind.dataChange("-- why\nDELETE FROM t"));
    assertEquals(
        "UPDATE", StatementKind.dataChange("WITH x AS (UPDATE t SET a = 1 RETURNING *) SELECT 1"));
    assertEquals("COPY", StatementKind.dataChange("COPY t FROM STDIN"));
    assertEquals("DDL", StatementKind.dataChange("CREATE INDEX ON t (a)"));
    assertEquals("TRUNCATE", StatementKind.dataChange("truncate t"));
    assertNull(StatementKind.dataChange("COPY t TO STDOUT"));
    assertNull(StatementKind.dataChange("WITH x AS (SELECT 1) SELECT * FROM x"));
    assertNull(StatementKind.dataChange("SELECT * FROM t"));
    assertNull(StatementKind.dataChange("ALTER SYSTEM SET work_mem = '8MB'"));
    assertNull(StatementKind.dataChange("BEGIN"));
  }
}
