package dev.wg1bench.replay.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Small csvlogs written by hand for the replay's tests, and the capture the replay reads from one:
 * shared by the capture's and the player's tests, so that each writes only its log's lines.
 */
public final class HandMadeLogs {
  private HandMadeLogs() {}

  /** A csvlog line in PostgreSQL 15's 26 columns. */
  public static String csv(
      String time,
      String sid,
      String severity,
      String state,
      String message,
      String detail,
      String query,
      String app,
      String backend) {
    return csv(time, sid, severity, state, message, detail, query, app, backend, 0);
  }

  /** A csvlog line as above, logged inside transaction {@code xid} (0: none yet). */
  public static String csv(
      String time,
      String sid,
      String severity,
      String state,
      String message,
      String detail,
      String query,
      String app,
      String backend,
      long xid) {
    String[] f = new String[26];
    Arrays.fill(f, "");
    f[0] = "2024-05-01 12:00:" + time + " UTC";
    f[1] = q("alice");
    f[2] = q("app");
    f[3] = "4242";
    f[5] = sid;
    f[6] = "1";
    f[10] = Long.toString(xid);
    f[11] = severity;
    f[12] = state;
    f[13] = q(message);
    f[14] = detail == null ? "" : q(detail);
    f[19] = query == null ? "" : q(query);
    f[22] = q(app);
    f[23] = q(backend);
    return String.join(",", f) + "\n";
  }

  /** A csv field quoted as PostgreSQL quotes it. */
  public static String q(String s) {
    return "\"" + s.replace("\"", "\"\"") + "\"";
  }

  /** A LOG line of psql's client backend in session {@code sid}, at second 0 + {@code time}. */
  public static String log(String sid, String time, String message) {
    return log(sid, time, message, 0);
  }

  /** A LOG line as above, logged inside transaction {@code xid} (0: none yet). */
  public static String log(String sid, String time, String message, long xid) {
    return csv(time, sid, "LOG", "00000", message, null, null, "psql", "client backend", xid);
  }

  /**
   * A log of {@code n} sessions that never overlap, one after the other every 5 ms from second 0:
   * each connects, runs SELECT 1 and disconnects within its 5 ms.
   */
  public static String serialSessions(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      String sid = Integer.toHexString(i) + ".1";
      b.append(log(sid, at(5L * i), "connection authorized: user=alice database=app"));
      b.append(log(sid, at(5L * i + 1), "statement: SELECT 1"));
      b.append(log(sid, at(5L * i + 2), "disconnection: session time: 0:00:00.002"));
    }
    return b.toString();
  }

  /** Seconds and milliseconds past 12:00 as the csv lines above write them, e.g. "07.125". */
  private static String at(long ms) {
    return String.format(java.util.Locale.ROOT, "%02d.%03d", ms / 1000, ms % 1000);
  }

  /** The capture of {@code content}, written as {@code log.csv} in {@code dir}, every session. */
  public static Capture capture(Path dir, String content) throws IOException {
    Path f = dir.resolve("log.csv");
    Files.writeString(f, content, StandardCharsets.UTF_8);
    return new CaptureBuilder(null, null, Selection.all()).read(f).build();
  }
}
