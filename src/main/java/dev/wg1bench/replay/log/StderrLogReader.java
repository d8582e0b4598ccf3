package dev.wg1bench.replay.log;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * stderr logs, read through their log_line_prefix: a message is a prefixed line with a level, the
 * lines after it that start with a tab, and the DETAIL, CONTEXT and STATEMENT lines of the same
 * session.
 */
final class StderrLogReader implements FormatReader {
  private static final Pattern LEVEL =
      Pattern.compile(
          "(?<level>LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DEBUG[1-5]?|DETAIL|HINT|CONTEXT"
              + "|STATEMENT|QUERY|LOCATION):  (?<text>.*)",
          Pattern.DOTALL);

  /**
   * A line of the dump of memory contexts a backend writes to stderr when it runs out of memory,
   * without log_line_prefix; other sessions' lines may come in between.
   */
  private static final Pattern MEMORY_DUMP =
      Pattern.compile(
          "\\s*(Grand total|[^:]+): \\d+ total in \\d+ blocks; \\d+ free( \\(\\d+ chunks\\))?;"
              + " \\d+ used.*");

  private final Problems problems;
  private final LogTime time;
  private final String prefix;
  private final Pattern pattern;

  /** The prefixes tried on a first line, for the message when none matches. */
  private final String tried;

  /**
   * @param tried the prefixes tried on a file's first line, quoted, for the message when it is not
   *     of this format
   */
  StderrLogReader(Problems problems, LogTime time, String prefix, String tried) {
    this.problems = problems;
    this.time = time;
    this.prefix = prefix;
    this.pattern = prefixPattern(prefix);
    this.tried = tried;
  }

  @Override
  public LogFormat format() {
    return LogFormat.STDERR;
  }

  @Override
  public boolean recognizes(LogLines.Line first) {
    return pattern != null && head(first.text()) != null;
  }

  /** The start of a message: its prefix's escapes, its level and the text after it. */
  private record Head(Matcher prefix, String level, String text) {}

  /** The head of a message's first line, or null when the line is not one. */
  private Head head(String line) {
    Matcher m = pattern.matcher(line);
    if (!m.lookingAt()) {
      return null;
    }
    Matcher level = LEVEL.matcher(line.substring(m.end()));
    return level.matches() ? new Head(m, level.group("level"), level.group("text")) : null;
  }

  /** A message being assembled from its line, continuation lines and DETAIL lines. */
  private static final class Pending {
    String where;
    int lines = 1;
    boolean notUtf8;
    Matcher prefix;
    String severity;
    StringBuilder message = new StringBuilder();
    StringBuilder detail;
    StringBuilder query;
    StringBuilder context;
    StringBuilder last = message;
  }

  /** Consecutive lines that are no message: one problem, not one per line (a memory dump). */
  private static final class Stray {
    String where;
    boolean memory;
    int lines;
  }

  @Override
  public void read(LogLines lines, Consumer<LogRecord> sink) throws IOException {
    if (pattern == null) {
      throw new UsageException(
          "--log-line-prefix must carry %c (session id) and %m, %t or %n (timestamp), as"
              + " pgreplay asks, got '"
              + prefix
              + "'");
    }
    LogLines.Line first = lines.peek();
    if (first != null && !recognizes(first)) {
      throw FormatReader.notThisFormat(
          lines.name + ":" + first.number(),
          "not a stderr log with log_line_prefix " + tried + " (use --log-line-prefix)");
    }
    Pending p = null;
    Stray stray = null;
    LogLines.Line line;
    while ((line = lines.next()) != null) {
      if (line.text().startsWith("\t") && p != null && stray == null) {
        p.last.append('\n').append(line.text(), 1, line.text().length());
        p.lines++;
        p.notUtf8 |= line.notUtf8();
        continue;
      }
      Head h = head(line.text());
      if (h == null) {
        stray = stray(stray, lines, line);
        continue;
      }
      stray = flush(stray);
      if (attach(p, h, line)) {
        continue;
      }
      flush(p, sink);
      p = new Pending();
      p.where = lines.where();
      p.notUtf8 = line.notUtf8();
      p.prefix = h.prefix;
      p.severity = h.level;
      p.message.append(h.text);
    }
    flush(stray);
    flush(p, sink);
  }

  /** A DETAIL, CONTEXT or STATEMENT line of the session of {@code p} joins its message. */
  private static boolean attach(Pending p, Head h, LogLines.Line line) {
    String lv = h.level;
    boolean attached =
        p != null
            && switch (lv) {
              case "DETAIL", "HINT", "CONTEXT", "STATEMENT", "QUERY", "LOCATION" ->
                  Objects.equals(group(p.prefix, "sid"), group(h.prefix, "sid"));
              default -> false;
            };
    if (!attached) {
      return false;
    }
    p.lines++;
    p.notUtf8 |= line.notUtf8();
    switch (lv) {
      case "DETAIL" -> p.last = p.detail = new StringBuilder(h.text);
      case "STATEMENT" -> p.last = p.query = new StringBuilder(h.text);
      case "CONTEXT" -> p.last = p.context = new StringBuilder(h.text);
      default -> p.last = new StringBuilder(); // hints are not replayed
    }
    return true;
  }

  private Stray stray(Stray stray, LogLines lines, LogLines.Line line) throws IOException {
    if (lines.cutOffAtEnd()) {
      flush(stray);
      problems.add(lines.where(), "truncated", "line cut off at the end of the file; left out", 1);
      return null;
    }
    boolean memory = MEMORY_DUMP.matcher(line.text()).matches();
    if (stray == null || stray.memory != memory || line.text().startsWith("TopMemoryContext:")) {
      flush(stray);
      stray = new Stray();
      stray.where = lines.where();
      stray.memory = memory;
    }
    stray.lines++;
    return stray;
  }

  private Stray flush(Stray s) {
    if (s == null) {
      return null;
    }
    String count = s.lines == 1 ? "1 line" : s.lines + " lines";
    if (s.memory) {
      problems.add(
          s.where,
          "memory dump",
          "a memory context dump (the server ran out of memory), " + count + "; left out",
          s.lines);
    } else {
      problems.add(
          s.where,
          "not stderr",
          "no log_line_prefix '" + prefix + "' and level, " + count + "; left out",
          s.lines);
    }
    return null;
  }

  private void flush(Pending p, Consumer<LogRecord> sink) {
    if (p == null) {
      return;
    }
    if (p.notUtf8) {
      problems.add(p.where, "not UTF-8", NOT_UTF8, p.lines);
      return;
    }
    String ts = group(p.prefix, "ts");
    Instant t = ts != null ? time.parse(ts) : LogTime.epoch(group(p.prefix, "epoch"));
    if (t == null) {
      problems.add(p.where, "bad timestamp", "timestamp unreadable", p.lines);
      return;
    }
    sink.accept(
        new LogRecord(
            p.where,
            t,
            FormatReader.blank(group(p.prefix, "user")),
            FormatReader.blank(group(p.prefix, "db")),
            FormatReader.blank(group(p.prefix, "sid")),
            FormatReader.blank(group(p.prefix, "app")),
            null,
            p.severity,
            FormatReader.blank(group(p.prefix, "state")),
            p.message.toString(),
            p.detail == null ? null : p.detail.toString(),
            p.query == null ? null : p.query.toString(),
            p.context == null ? null : p.context.toString(),
            FormatReader.transactionId(group(p.prefix, "xid"))));
  }

  private static String group(Matcher m, String name) {
    try {
      return m.group(name);
    } catch (IllegalArgumentException e) {
      return null; // the prefix has no such escape, %e among them: sqlState is then null
    }
  }

  /**
   * A regular expression for a log_line_prefix, one named group per escape replay reads; null when
   * the prefix lacks a session id or a timestamp (lines could not be told apart or timed).
   */
  static Pattern prefixPattern(String prefix) {
    StringBuilder re = new StringBuilder();
    boolean sid = false;
    boolean ts = false;
    Set<String> used = new HashSet<>();
    for (int i = 0; i < prefix.length(); i++) {
      char c = prefix.charAt(i);
      if (c != '%' || i + 1 == prefix.length()) {
        re.append(Pattern.quote(String.valueOf(c)));
        continue;
      }
      char e = prefix.charAt(++i);
      // a padding width (%-10u) is allowed by PostgreSQL; the value is then space-padded
      while ((e == '-' || Character.isDigit(e)) && i + 1 < prefix.length()) {
        e = prefix.charAt(++i);
      }
      re.append(escape(e, used));
      sid |= e == 'c';
      ts |= e == 'm' || e == 't' || e == 'n';
    }
    return sid && ts ? Pattern.compile(re.toString()) : null;
  }

  private static String escape(char e, Set<String> used) {
    return switch (e) {
      case 'm' -> named(used, "ts", "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [^ ]+");
      case 't' -> named(used, "ts", "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [^ ]+");
      case 'n' -> named(used, "epoch", "\\d+\\.\\d+");
      case 'c' -> named(used, "sid", "[0-9a-f]+\\.[0-9a-f]+");
      case 'u' -> named(used, "user", ".*?");
      case 'd' -> named(used, "db", ".*?");
      case 'a' -> named(used, "app", ".*?");
      case 'e' -> named(used, "state", "[0-9A-Z]{5}");
      case 'x' -> named(used, "xid", "\\d*");
      case 'p', 'l', 'P' -> "\\d*";
      case 's' -> "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [^ ]+";
      case '%' -> "%";
      case 'q' -> "";
      default -> ".*?";
    };
  }

  private static String named(Set<String> used, String name, String re) {
    return used.add(name) ? "(?<" + name + ">" + re + ")" : "(?:" + re + ")";
  }
}
