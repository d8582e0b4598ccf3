package dev.wg1bench.replay.play;

import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.replay.capture.PastedIds;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.server.ConnectionFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replay's own ids in place of the capture's where the log shows them pasted into statements
 * ({@link PastedIds}): its id of each such transaction, read inside it at the point the plan names,
 * and its session's temporary schema, read when a statement names the capture's; one query each. A
 * replay of a log that pastes none reads nothing.
 */
final class ReplayIds {
  /** Reads the session's own id, null when its transaction has none (PostgreSQL 10 and later). */
  private static final String READ_XID = "SELECT txid_current_if_assigned()";

  /** The session's own temporary schema, "-" when it has none yet. */
  private static final String READ_TEMP_SCHEMA = "SELECT pg_my_temp_schema()::regnamespace::text";

  private final PastedIds plan;

  /** Capture's id (as the log shows it) to the replay's, 64 bits with its epoch. */
  private final Map<Long, Long> ids = new ConcurrentHashMap<>();

  private final AtomicLong read = new AtomicLong();
  private final AtomicLong translated = new AtomicLong();
  private final AtomicLong tempSchemas = new AtomicLong();
  private final AtomicLong left = new AtomicLong();

  ReplayIds(PastedIds plan) {
    this.plan = plan;
  }

  /**
   * After statement {@code j} of session {@code i}: reads the replay's id of the transaction the
   * plan names there. A transaction the replay failed before (25P02) or that has no id tells
   * nothing.
   */
  void learnAfter(Connection c, int i, int j) {
    long capture = plan.learnAfter(i, j);
    if (capture == 0 || c == null) {
      return;
    }
    String id = query(c, READ_XID);
    if (id != null) {
      read.incrementAndGet();
      ids.put(capture, Long.parseLong(id));
    }
  }

  /**
   * Statement {@code j} of session {@code i} as the replay sends it on {@code c}: with the replay's
   * ids in place of the capture's where it holds any and they are known, else as logged.
   */
  LoggedStatement sending(LoggedStatement st, Connection c, int i, int j) {
    LoggedStatement out = st;
    boolean asLogged = false;
    if (plan.pastesXids(i, j)) {
      LoggedStatement x = PastedIds.translated(out, this::replayXid);
      if (x != null) {
        out = x;
        translated.incrementAndGet();
      } else {
        asLogged = true;
      }
    }
    if (plan.namesTempSchema(i, j)) {
      String schema = query(c, READ_TEMP_SCHEMA);
      LoggedStatement t =
          schema != null && schema.startsWith("pg_temp_")
              ? PastedIds.withTempSchema(out, Integer.parseInt(schema.substring(8)))
              : null;
      if (t != null) {
        out = t;
        tempSchemas.incrementAndGet();
      } else {
        asLogged = true;
      }
    }
    if (asLogged) {
      left.incrementAndGet();
    }
    return out;
  }

  private long replayXid(long capture) {
    Long replay = ids.get(capture);
    return replay == null ? -1 : replay;
  }

  /**
   * One value the server gives this session, null when it gives none or cannot: a block the replay
   * failed before (25P02), or a server before PostgreSQL 10, which is not asked (the function's
   * error would fail the block).
   */
  private static String query(Connection c, String sql) {
    if (c == null) {
      return null;
    }
    try {
      if (c.getMetaData().getDatabaseMajorVersion() < 10) {
        return null;
      }
      try (Statement s = ConnectionFactory.unnamed(c.createStatement());
          ResultSet rs = s.executeQuery(sql)) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      // the block had failed already in the replay: its statements fail alike, translated or not
      return null;
    }
  }

  /** Null when the log pastes no id, else what the replay read and sent. */
  ReplayResult.PastedIdCounts result() {
    return plan.pasted() == 0 && plan.tempSchemaStatements() == 0
        ? null
        : new ReplayResult.PastedIdCounts(
            plan.pasted(), read.get(), translated.get(), tempSchemas.get(), left.get());
  }
}
