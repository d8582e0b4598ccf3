package dev.wg1bench.replay.capture;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statements a replay cannot send as they were logged, and why: they are skipped and counted, never
 * sent wrong. pgreplay skips the session settings below for the same reason (libpq and pgjdbc both
 * need the encoding and date format they asked for), and no log holds COPY's data.
 */
public final class Replayable {
  static final String COPY_IN = "COPY FROM STDIN (its data is not in the log)";
  static final String FASTPATH = "fast-path function call (pgjdbc sends none)";
  static final String ENCODING =
      "SET client_encoding other than UTF8 (pgjdbc closes the connection)";
  static final String DATESTYLE = "SET DateStyle other than ISO (pgjdbc closes the connection)";
  static final String IN_COPY_BLOCK =
      "in a transaction block with a COPY FROM STDIN (--copy-block skip)";

  // the grammar takes STDIN and STDOUT alike on either side: FROM STDOUT reads from the client
  private static final Pattern COPY_IN_RE =
      Pattern.compile("(?s)copy\\b.*\\bfrom\\s+std(in|out)\\b.*");
  private static final Pattern COPY_OUT_RE =
      Pattern.compile("(?s)copy\\b.*\\bto\\s+std(out|in)\\b.*");
  private static final Pattern ENCODING_RE =
      Pattern.compile(
          "(?s)set\\s+(?:session\\s+|local\\s+)?(?:client_encoding\\s*(?:to|=)|names)\\s*(.*)");
  private static final Pattern DATESTYLE_RE =
      Pattern.compile("(?s)set\\s+(?:session\\s+|local\\s+)?datestyle\\s*(?:to|=)\\s*(.*)");

  private Replayable() {}

  /**
   * Why the statement (any part of a multi-statement string) cannot be replayed; null if it can.
   */
  static String reason(String sql) {
    List<String> parts = SqlText.parts(sql);
    for (String part : parts) {
      String s = words(part);
      if (COPY_IN_RE.matcher(s).matches()) {
        return COPY_IN;
      }
      Matcher e = ENCODING_RE.matcher(s);
      if (e.matches() && !utf8(value(e.group(1)))) {
        return ENCODING;
      }
      Matcher d = DATESTYLE_RE.matcher(s);
      if (d.matches() && !iso(value(d.group(1))) && parts.size() > 1) {
        return DATESTYLE; // alone, it is rewritten instead (see asSent)
      }
    }
    return null;
  }

  /**
   * The text to send for a statement that cannot go as logged but can go changed, else null. A
   * {@code SET DateStyle} whose output format is not ISO (pgjdbc closes the connection on it) is
   * sent with the output format ISO and the input field order it asked for, which is what decides
   * how later date literals are read: '13/06/1957' is a date under DMY and an error under MDY.
   */
  static String asSent(String sql) {
    List<String> parts = SqlText.parts(sql);
    if (parts.size() != 1) {
      return null;
    }
    Matcher d = DATESTYLE_RE.matcher(words(parts.get(0)));
    if (!d.matches() || iso(value(d.group(1)))) {
      return null;
    }
    String order = null;
    boolean german = false;
    for (String token : value(d.group(1)).split("[,\\s]+")) {
      switch (token) {
        case "dmy", "euro", "european" -> order = "DMY";
        case "mdy", "us", "noneuro", "noneuropean" -> order = "MDY";
        case "ymd" -> order = "YMD";
        case "german" -> german = true;
        default -> {}
      }
    }
    // German output sets the DMY order too, unless an order is named; the others keep the order
    if (order == null && german) {
      order = "DMY";
    }
    return "SET DateStyle TO 'ISO" + (order == null ? "" : ", " + order) + "'";
  }

  /** COPY ... TO STDOUT, alone in its string: replayed through pgjdbc's CopyManager. */
  public static boolean copyOut(String sql) {
    List<String> parts = SqlText.parts(sql);
    return parts.size() == 1 && COPY_OUT_RE.matcher(words(parts.get(0))).matches();
  }

  /** Whether the capture holds a COPY FROM STDIN, which the dry run and the replay say. */
  public static boolean anyCopyIn(Capture c) {
    return c.notReplayableByReason().containsKey(COPY_IN);
  }

  private static String words(String part) {
    return part.replaceAll("(?s)/\\*.*?\\*/", " ")
        .replaceAll("--[^\n]*", " ")
        .strip()
        .toLowerCase(Locale.ROOT);
  }

  private static String value(String v) {
    return v.replace("'", "").replace("\"", "").strip();
  }

  private static boolean utf8(String v) {
    return v.equals("utf8") || v.equals("utf-8") || v.equals("unicode") || v.equals("default");
  }

  /** pgjdbc accepts a DateStyle whose output format is ISO; an input order may follow. */
  private static boolean iso(String v) {
    for (String token : v.split("[,\\s]+")) {
      if (token.equals("postgres") || token.equals("sql") || token.equals("german")) {
        return false;
      }
    }
    return true;
  }
}
