package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.CaptureBuilder;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.log.LogReader;
import dev.wg1bench.replay.result.ReplayResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The replay's own referee: every statement's outcome on replay (ok, or its SQLSTATE) against the
 * log's, one by one. A replay is faithful when no statement's outcome differs, apart from those it
 * said it would not send; the exit code comes from here, not from the aggregate counts, which can
 * agree while the statements behind them do not.
 */
public final class Outcomes {
  /** Divergences kept in full in the result; beyond this only counted. */
  static final int KEPT = 1000;

  /** First divergences per session kept; beyond this only counted. */
  static final int KEPT_SESSIONS = 200;

  static final String REPLAY_ONLY = "failed in the replay only";
  static final String LOG_ONLY = "failed in the log only";
  static final String OTHER_STATE = "failed with another SQLSTATE";
  static final String DRIVER = "failed in the driver (no server SQLSTATE)";
  static final String NOT_RUN = "not run: the session's connection was lost or never opened";

  /**
   * A transaction id the capture's server assigned, written into the statement (a test that read
   * {@code pg_current_xact_id()} and pasted it in, as psql's {@code \gset} does), which the replay
   * cluster has not reached: 22023 "transaction ID N is in the future". The replay sends its own id
   * in place of one the log shows ({@link ReplayIds}); this names a pasted id it could not replace
   * (an implicit transaction's, which no line of the log shows), counted apart so the report says
   * why.
   */
  static final String FOREIGN_XID =
      "failed in the replay only: a transaction id of the capture's server, not reached here";

  /** The server's words for such an id (xid8 and txid functions alike). */
  private static final Pattern IN_THE_FUTURE =
      Pattern.compile("transaction ID \\d+ is in the future");

  /** 25P02 in the transaction block such a statement failed: the rest of that block. */
  static final String IN_FOREIGN_XID_BLOCK =
      "failed in the replay only: in the block a capture's transaction id failed";

  private long compared;
  private long same;
  private long statesUnknown;
  private long sentTwice;
  private long notRun;
  private final Map<String, Long> byCause = new LinkedHashMap<>();
  private final Map<String, Long> skipped = new TreeMap<>();
  private final List<ReplayResult.Divergence> kept = new ArrayList<>();
  private final Map<String, ReplayResult.Divergence> firstBySession = new LinkedHashMap<>();
  private long divergent;

  /**
   * The capture's ids pasted into statements, put as the replay's; null until the replay starts.
   */
  private ReplayIds xids;

  /** Sessions whose open transaction block failed on a capture's transaction id. */
  private final Set<String> foreignXidBlocks = new HashSet<>();

  /** The replay's ids of the capture's pasted ones, reported with the outcomes. */
  synchronized void pastedIds(ReplayIds x) {
    xids = x;
  }

  /** A statement sent: its outcome against the log's. */
  synchronized void compared(LoggedSession s, LoggedStatement st, StatementSender.Sent sent) {
    compared++;
    if (sent.sentTwice()) {
      sentTwice++;
    }
    String cause = named(s.id(), cause(st.logOutcome(), sent.outcome()), sent);
    if (cause == null) {
      same++;
      if (CaptureBuilder.UNKNOWN_STATE.equals(st.logSqlState())) {
        statesUnknown++;
      }
      return;
    }
    diverged(s, st, sent.outcome(), sent.message(), cause);
  }

  /**
   * A divergence failed in the replay only, named by what failed it where the server's error says:
   * a capture's transaction id, then the rest of its block ({@link #FOREIGN_XID}). Any other
   * outcome of the session ends that block's naming.
   */
  private String named(String session, String cause, StatementSender.Sent sent) {
    if (REPLAY_ONLY.equals(cause)) {
      if ("22023".equals(sent.outcome())
          && sent.message() != null
          && IN_THE_FUTURE.matcher(sent.message()).find()) {
        foreignXidBlocks.add(session);
        return FOREIGN_XID;
      }
      if ("25P02".equals(sent.outcome()) && foreignXidBlocks.contains(session)) {
        return IN_FOREIGN_XID_BLOCK;
      }
    }
    foreignXidBlocks.remove(session);
    return cause;
  }

  /** A statement never sent because its session ended first. */
  synchronized void notRun(LoggedSession s, LoggedStatement st) {
    notRun++;
    diverged(s, st, "not run", null, NOT_RUN);
  }

  /** A statement the replay did not send on purpose, and why. */
  synchronized void skipped(String reason) {
    skipped.merge(reason, 1L, Long::sum);
  }

  /**
   * Why the two outcomes differ, null when they agree. An error whose SQLSTATE the log does not
   * carry (stderr without %e) agrees with any server error.
   */
  static String cause(String log, String replay) {
    if (log.equals(replay)) {
      return null;
    }
    if (replay.startsWith("driver ")) {
      return DRIVER;
    }
    if (replay.equals("ok")) {
      return LOG_ONLY;
    }
    if (log.equals("ok")) {
      return REPLAY_ONLY;
    }
    return CaptureBuilder.UNKNOWN_STATE.equals(log) ? null : OTHER_STATE;
  }

  private void diverged(
      LoggedSession s, LoggedStatement st, String replay, String message, String cause) {
    divergent++;
    byCause.merge(cause, 1L, Long::sum);
    ReplayResult.Divergence d =
        new ReplayResult.Divergence(
            s.id(),
            st.where(),
            LogReader.abbreviate(st.sql(), 200),
            st.logOutcome(),
            replay,
            cause,
            message);
    if (kept.size() < KEPT) {
      kept.add(d);
    }
    if (!firstBySession.containsKey(s.id()) && firstBySession.size() < KEPT_SESSIONS) {
      firstBySession.put(s.id(), d);
    }
  }

  public synchronized ReplayResult.StatementFidelity result() {
    return new ReplayResult.StatementFidelity(
        compared,
        same,
        divergent,
        new LinkedHashMap<>(byCause),
        new TreeMap<>(skipped),
        skipped.values().stream().mapToLong(Long::longValue).sum(),
        statesUnknown,
        sentTwice,
        List.copyOf(kept),
        List.copyOf(firstBySession.values()),
        xids == null ? null : xids.result());
  }

  synchronized long divergent() {
    return divergent;
  }

  synchronized long notRunCount() {
    return notRun;
  }
}
