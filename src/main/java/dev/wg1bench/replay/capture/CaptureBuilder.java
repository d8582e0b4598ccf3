package dev.wg1bench.replay.capture;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.log.LogFormat;
import dev.wg1bench.replay.log.LogReader;
import dev.wg1bench.replay.log.LogRecord;
import dev.wg1bench.replay.log.Problems;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rebuilds client sessions from log records, as pgreplay does: a session is its session id; its
 * statements are the {@code statement:} and {@code execute ...:} messages (or, with only
 * log_min_duration_statement=0, the {@code duration: ... statement/execute} ones), bind values come
 * from the {@code parameters:} detail, errors are charged to the statement they follow.
 */
public final class CaptureBuilder {
  /** Application names of wg1bench's own connections, left out of a replay of a replay. */
  static final String OWN_APPLICATION = "wg1bench";

  static final String LEFT_OWN = "wg1bench's own sessions";
  static final String LEFT_LOGGING = "logging settings (ALTER SYSTEM, SET log_*, reload)";
  static final String LEFT_BACKGROUND = "background processes (autovacuum, checkpointer, ...)";
  static final String LEFT_PARAMETERS = "parameters missing";
  static final String LEFT_PORTAL = "portal fetches (execute fetch from), run with the execute";

  private static final Pattern DURATION =
      Pattern.compile(
          "duration: (?<ms>[0-9.]+) ms(?:  (?<kind>statement|execute|parse|bind|fastpath)"
              + "(?<name>[^:]*)?: (?<sql>.*))?",
          Pattern.DOTALL);

  /** An error the log shows without its SQLSTATE (a stderr prefix without %e). */
  public static final String UNKNOWN_STATE = "?????";

  private static final Pattern EXECUTE =
      Pattern.compile("execute (?<name>[^:]*): (?<sql>.*)", Pattern.DOTALL);

  /** CONTEXT of a failed statement: {@code unnamed portal with parameters: $1 = '0'}. */
  private static final Pattern PORTAL_PARAMETERS =
      Pattern.compile("portal(?: \"[^\"]*\")? with parameters: ([^\n]*)", Pattern.CASE_INSENSITIVE);

  /**
   * CONTEXT of a statement that failed at Bind on one value, which the server names alone: {@code
   * unnamed portal parameter $1 = 'abc'}. Enough to replay a statement whose only parameter it is.
   */
  private static final Pattern PORTAL_PARAMETER =
      Pattern.compile(
          "portal(?: \"[^\"]*\")? parameter \\$(\\d+) = ([^\n]*)", Pattern.CASE_INSENSITIVE);

  private static final Pattern AUTHORIZED_FIELD =
      Pattern.compile("(user|database|application_name)=(\\S*)");

  private final Problems problems = new Problems();
  private final LogReader reader;
  private final LogOrder logOrder = new LogOrder();
  private final Selection selection;
  private final Map<String, State> sessions = new LinkedHashMap<>();
  private final Map<String, String> formats = new LinkedHashMap<>();
  private final Map<String, Long> leftOut = new LinkedHashMap<>();
  private long records;
  private long durations;
  private final List<LoggedDeadlock> deadlocks = new ArrayList<>();

  private static final class State {
    final String id;
    String user;
    String database;
    String application;
    Instant connected;
    Instant disconnected;
    boolean background;
    final List<LoggedStatement> statements = new ArrayList<>();
    final Map<String, Long> errors = new LinkedHashMap<>();

    /**
     * Index of the last statement logged at its start (log_statement) whose end (a duration or an
     * error record) has not been seen yet, else -1: a duration or an error belongs to it, while one
     * that comes when nothing is open is a statement logged at its end.
     */
    int open = -1;

    State(String id) {
      this.id = id;
    }

    /** The open statement ends unseen: the next one's record is all the log has of its end. */
    void closeOpen() {
      open = -1;
    }
  }

  /**
   * The capture of some log files in time order; a missing file is a usage error, an unreadable one
   * a runtime failure, each one line naming the file.
   */
  public static Capture readLogs(
      List<Path> logs, LogFormat format, String linePrefix, Selection selection) {
    CaptureBuilder builder = new CaptureBuilder(format, linePrefix, selection);
    for (Path log : logs) {
      try {
        builder.read(log);
      } catch (NoSuchFileException e) {
        throw new UsageException("LOG " + log + ": no such file");
      } catch (IOException e) {
        throw new RunFailure("LOG " + log + ": " + e.getMessage(), e);
      }
    }
    return builder.build();
  }

  public CaptureBuilder(LogFormat format, String linePrefix, Selection selection) {
    this.reader = new LogReader(problems, format, linePrefix);
    this.selection = selection;
  }

  public CaptureBuilder read(Path file) throws IOException {
    LogFormat f = reader.read(file, r -> add(logOrder.place(r)));
    formats.put(file.toString(), f.cliName());
    return this;
  }

  public Capture build() {
    List<LoggedSession> out = new ArrayList<>();
    long notSelected = 0;
    long withoutEnd = 0;
    Map<String, Long> errors = new TreeMap<>();
    for (State s : sessions.values()) {
      if (s.background) {
        continue;
      }
      if (s.connected == null && s.statements.isEmpty()) {
        continue; // the postmaster's own lines, a connection refused before authentication
      }
      if (s.application != null && s.application.startsWith(OWN_APPLICATION)) {
        leftOut.merge(LEFT_OWN, (long) s.statements.size(), Long::sum);
        continue;
      }
      if (!selection.selects(s.database, s.user, s.application)) {
        notSelected++;
        continue;
      }
      List<LoggedStatement> st = inOrder(s.statements);
      Instant connected = s.connected != null ? s.connected : st.get(0).time();
      if (!st.isEmpty() && st.get(0).time().isBefore(connected)) {
        connected = st.get(0).time();
      }
      if (s.disconnected == null) {
        withoutEnd++;
      }
      s.errors.forEach((k, v) -> errors.merge(k, v, Long::sum));
      out.add(
          new LoggedSession(
              s.id, s.user, s.database, s.application, connected, s.disconnected, List.copyOf(st)));
    }
    out.sort(Comparator.comparing(LoggedSession::connected));
    return new Capture(
        List.copyOf(out),
        formats,
        records,
        leftOut,
        notSelected,
        withoutEnd,
        errors,
        durations,
        problems,
        List.copyOf(deadlocks));
  }

  private void add(LogRecord r) {
    records++;
    if (r.sessionId() == null) {
      return;
    }
    State s = sessions.computeIfAbsent(r.sessionId(), State::new);
    identify(s, r);
    // "not initialized": a client's connection before authentication
    if (r.backendType() != null
        && !"client backend".equals(r.backendType())
        && !"not initialized".equals(r.backendType())) {
      s.background = true;
      leftOut.merge(LEFT_BACKGROUND, 1L, Long::sum);
      return;
    }
    if (r.isError()) {
      error(s, r);
    } else if (!connection(s, r) && !started(s, r)) {
      duration(s, r, r.message());
    }
  }

  /**
   * Who the session is, from the line prefix of any of its records: the first user and database
   * seen stay, the application name follows the latest (a client may change it).
   */
  private static void identify(State s, LogRecord r) {
    if (s.user == null) {
      s.user = r.user();
    }
    if (s.database == null) {
      s.database = r.database();
    }
    if (r.applicationName() != null) {
      s.application = r.applicationName();
    }
  }

  /**
   * The session's start and end (log_connections, log_disconnections); the authorization line names
   * the user, database and application even when the prefix does not. False for other records.
   */
  private static boolean connection(State s, LogRecord r) {
    String msg = r.message();
    if (msg.startsWith("connection authorized: ")) {
      s.connected = r.time();
      Matcher m = AUTHORIZED_FIELD.matcher(msg);
      while (m.find()) {
        switch (m.group(1)) {
          case "user" -> s.user = m.group(2);
          case "database" -> s.database = m.group(2);
          default -> s.application = m.group(2);
        }
      }
      return true;
    }
    if (msg.startsWith("disconnection: ")) {
      s.disconnected = r.time();
      return true;
    }
    return false;
  }

  /**
   * A statement logged at its start (log_statement): simple, fast-path or an extended execute,
   * which stays open for the duration or error that ends it. False for other records.
   */
  private boolean started(State s, LogRecord r) {
    String msg = r.message();
    if (msg.startsWith("statement: ")) {
      s.closeOpen();
      statement(s, r, r.time(), null, msg.substring("statement: ".length()), false, null);
      s.open = s.statements.size() - 1;
      return true;
    }
    if (msg.startsWith("fastpath function call: ")) {
      s.closeOpen();
      fastpath(s, r, r.time(), null, msg);
      return true;
    }
    Matcher e = EXECUTE.matcher(msg);
    if (!e.matches()) {
      return false;
    }
    if (e.group("name").startsWith("fetch from ")) {
      leftOut.merge(LEFT_PORTAL, 1L, Long::sum);
      return true;
    }
    s.closeOpen();
    statement(s, r, r.time(), null, e.group("sql"), true, null);
    s.open = s.statements.size() - 1;
    return true;
  }

  /**
   * Start times that never run backwards within a session: a start derived from a log time (kept to
   * the millisecond) less a duration (to the microsecond) can fall before the previous statement's,
   * and a statement never started before the one the session ran before it.
   */
  private static List<LoggedStatement> inOrder(List<LoggedStatement> statements) {
    List<LoggedStatement> out = new ArrayList<>(statements.size());
    Instant last = Instant.MIN;
    for (LoggedStatement st : statements) {
      if (st.time().isBefore(last)) {
        st = st.startingAt(last);
      }
      last = st.time();
      out.add(st);
    }
    return out;
  }

  /**
   * An ERROR (or worse) record: the failure of the statement still open (logged at its start), or
   * all the log has of a statement that failed before it was logged (at Parse or Bind, or with only
   * durations logged, since a failed statement logs no duration). An error whose statement text
   * differs from the open one's is of a statement of its own.
   */
  private void error(State s, LogRecord r) {
    String state = r.sqlState() == null ? UNKNOWN_STATE : r.sqlState();
    s.errors.merge(state, 1L, Long::sum);
    if ("40P01".equals(state)) {
      LoggedDeadlock d = LoggedDeadlock.of(s.id, r.time(), r.detail());
      if (d != null) {
        deadlocks.add(d);
      }
    }
    if (s.open >= 0) {
      LoggedStatement open = s.statements.get(s.open);
      if (r.query() == null || r.query().equals(open.sql())) {
        s.statements.set(s.open, open.failed(r.time(), state, r.transactionId()));
        s.open = -1;
        return;
      }
      s.closeOpen();
    }
    if (r.query() == null || !"ERROR".equals(r.severity())) {
      return; // a FATAL of the connection, or an error the log shows no statement for
    }
    // no values: sent as a simple Query (a multi-statement string can only have been one)
    List<String> values = null;
    int n = SqlText.highestParameter(r.query());
    if (n > 0) {
      // its values are in the CONTEXT when log_parameter_max_length_on_error allows
      values = contextValues(r.context(), n);
      // class 42 (syntax, undefined objects) fails at Parse, whatever the values: a simple Query
      // fails alike (a $n in a PREPARE's text, or in a simple Query, is no bind parameter)
      if (values == null && !state.startsWith("42")) {
        problems.add(
            r.where(),
            LEFT_PARAMETERS,
            "failed statement with $"
                + n
                + (r.context() != null && PORTAL_PARAMETER.matcher(r.context()).find()
                    ? " that failed at Bind on one value: the log shows only that one; left out"
                    : " whose values the log does not show in its CONTEXT (set"
                        + " log_parameter_max_length_on_error = -1); left out"),
            1);
        leftOut.merge(LEFT_PARAMETERS, 1L, Long::sum);
        return;
      }
    }
    LoggedStatement st =
        new LoggedStatement(
            r.where(),
            r.time(),
            r.time(),
            r.query(),
            values,
            null,
            state,
            Replayable.reason(r.query()),
            Replayable.asSent(r.query()),
            0,
            r.transactionId());
    s.statements.add(st);
  }

  /**
   * A "duration:" record: the end of the open statement (logged at its start), or a statement
   * logged at its end, which started its duration earlier.
   */
  private void duration(State s, LogRecord r, String msg) {
    Matcher d = DURATION.matcher(msg);
    if (!d.matches()) {
      return;
    }
    double ms = Double.parseDouble(d.group("ms"));
    String kind = d.group("kind");
    if (kind == null) {
      if (s.open >= 0) {
        s.statements.set(s.open, s.statements.get(s.open).ended(r.time(), ms, r.transactionId()));
        s.open = -1;
        durations++;
      }
      return;
    }
    if (kind.equals("parse") || kind.equals("bind")) {
      return; // part of the execute that follows
    }
    s.closeOpen();
    // full resolution: the log time to the millisecond (or finer), the duration to the microsecond
    Instant start = r.time().minusNanos(Math.round(ms * 1e6));
    switch (kind) {
      case "statement" -> statement(s, r, start, r.time(), d.group("sql"), false, ms);
      case "fastpath" -> fastpath(s, r, start, r.time(), msg);
      default -> {
        if (d.group("name").strip().startsWith("fetch from ")) {
          leftOut.merge(LEFT_PORTAL, 1L, Long::sum);
        } else {
          statement(s, r, start, r.time(), d.group("sql"), true, ms);
        }
      }
    }
  }

  /**
   * The values of a statement with {@code n} parameters that failed before it executed, from its
   * CONTEXT: all of them (log_parameter_max_length_on_error), or the one a Bind error names when it
   * is the only one; null when the log does not show them all.
   */
  private static List<String> contextValues(String context, int n) {
    if (context == null) {
      return null;
    }
    Matcher all = PORTAL_PARAMETERS.matcher(context);
    if (all.find()) {
      List<String> v = ParametersDetail.parse("parameters: " + all.group(1));
      return v != null && v.size() >= n ? v : null;
    }
    Matcher one = PORTAL_PARAMETER.matcher(context);
    if (n == 1 && one.find() && one.group(1).equals("1")) {
      return ParametersDetail.parse("parameters: $1 = " + one.group(2));
    }
    return null;
  }

  /** A fast-path function call: in the capture, never replayed (pgjdbc sends none). */
  private void fastpath(State s, LogRecord r, Instant start, Instant end, String msg) {
    s.statements.add(
        new LoggedStatement(
            r.where(), start, end, msg, null, null, null, Replayable.FASTPATH, null, 0, 0));
  }

  private void statement(
      State s,
      LogRecord r,
      Instant time,
      Instant end,
      String sql,
      boolean extended,
      Double durationMs) {
    String logging = StatementKind.maintenance(sql);
    if (logging != null) {
      leftOut.merge(LEFT_LOGGING, 1L, Long::sum);
      return;
    }
    List<String> params = null;
    if (extended) {
      String detail = r.detail();
      int needed = SqlText.highestParameter(sql);
      params = detail == null ? (needed == 0 ? List.of() : null) : ParametersDetail.parse(detail);
      if (params == null || params.size() < needed) {
        problems.add(
            r.where(),
            LEFT_PARAMETERS,
            "statement with $"
                + needed
                + " but no 'parameters:' detail for it (log_parameter_max_length=0?); left out",
            1);
        leftOut.merge(LEFT_PARAMETERS, 1L, Long::sum);
        return;
      }
    }
    s.statements.add(
        new LoggedStatement(
            r.where(),
            time,
            end,
            sql,
            params,
            durationMs,
            null,
            Replayable.reason(sql),
            Replayable.asSent(sql),
            // logged at its start (no end yet) the line's id is one given before it; at its end,
            // one it may have been given itself
            end == null ? r.transactionId() : 0,
            end == null ? 0 : r.transactionId()));
    if (durationMs != null) {
      durations++;
    }
  }
}
