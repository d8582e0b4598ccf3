package dev.wg1bench.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.plan.UsageException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a server log in csvlog, jsonlog or stderr format into {@link LogRecord}s. A record that
 * cannot be read (truncated, bytes that are not UTF-8, a line of another format) is left out and
 * reported with its file:line in {@link Problems}, never thrown: one bad line must not cost the
 * rest of a capture. A file whose very first record is of no known format is a usage error, since
 * nothing of it could be replayed.
 */
public final class LogReader {
  /** pgreplay's advice for stderr logs: timestamp, user, database and session id. */
  public static final String DEFAULT_PREFIX = "%m|%u|%d|%c|";

  /** Columns up to application_name, present in every csvlog since PostgreSQL 9.0. */
  static final int CSV_MIN_COLUMNS = 23;

  private static final Pattern CSV_START =
      Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? [A-Za-z0-9+:-]+,");
  private static final Pattern STDERR_LEVEL =
      Pattern.compile(
          "(?<level>LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DEBUG[1-5]?|DETAIL|HINT|CONTEXT"
              + "|STATEMENT|QUERY|LOCATION):  (?<text>.*)",
          Pattern.DOTALL);

  private final Problems problems;
  private final LogFormat forced;
  private final String prefix;
  private final Pattern prefixPattern;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param forced the format all files are in, or null to recognize each file's from its first line
   * @param linePrefix log_line_prefix of stderr logs
   */
  public LogReader(Problems problems, LogFormat forced, String linePrefix) {
    this.problems = problems;
    this.forced = forced;
    this.prefix = linePrefix == null ? DEFAULT_PREFIX : linePrefix;
    this.prefixPattern = prefixPattern(this.prefix);
  }

  /** Reads one file; returns the format it was read as. */
  public LogFormat read(Path file, Consumer<LogRecord> sink) throws IOException {
    String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    try (Lines lines = new Lines(Files.newInputStream(file), name)) {
      Line first = lines.peek();
      if (first == null) {
        return forced == null ? LogFormat.CSVLOG : forced;
      }
      LogFormat f = forced != null ? forced : detect(first);
      if (f == null) {
        throw new UsageException(
            name
                + ":"
                + first.number
                + ": not a csvlog, jsonlog or stderr log with log_line_prefix '"
                + prefix
                + "' (use --log-line-prefix for another prefix); line starts: "
                + abbreviate(first.text, 60));
      }
      switch (f) {
        case CSVLOG -> readCsv(lines, sink);
        case JSONLOG -> readJson(lines, sink);
        default -> readStderr(lines, sink);
      }
      return f;
    }
  }

  private LogFormat detect(Line first) {
    if (first.text.startsWith("{")) {
      return LogFormat.JSONLOG;
    }
    if (prefixPattern != null) {
      Matcher m = prefixPattern.matcher(first.text);
      if (m.lookingAt() && STDERR_LEVEL.matcher(first.text.substring(m.end())).matches()) {
        return LogFormat.STDERR;
      }
    }
    if (CSV_START.matcher(first.text).find()) {
      return LogFormat.CSVLOG;
    }
    return null;
  }

  // ---- csvlog

  private void readCsv(Lines lines, Consumer<LogRecord> sink) throws IOException {
    Line line;
    while ((line = lines.next()) != null) {
      int start = line.number;
      boolean bad = line.notUtf8;
      List<String> fields = new ArrayList<>();
      StringBuilder f = new StringBuilder();
      boolean quoted = false;
      boolean truncated = false;
      String text = line.text;
      while (true) {
        for (int i = 0; i < text.length(); i++) {
          char c = text.charAt(i);
          if (quoted) {
            if (c == '"') {
              if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                f.append('"');
                i++;
              } else {
                quoted = false;
              }
            } else {
              f.append(c);
            }
          } else if (c == '"') {
            quoted = true;
          } else if (c == ',') {
            fields.add(f.toString());
            f.setLength(0);
          } else {
            f.append(c);
          }
        }
        if (!quoted) {
          fields.add(f.toString());
          break;
        }
        // a quoted field goes on past the line: a multi-line statement or message
        Line more = lines.next();
        if (more == null) {
          truncated = true;
          break;
        }
        bad |= more.notUtf8;
        f.append('\n');
        text = more.text;
      }
      int count = lines.number() - start + 1;
      String where = lines.name + ":" + start;
      if (truncated) {
        problems.add(where, "truncated", "record cut off at the end of the file; left out", count);
      } else if (bad) {
        problems.add(
            where,
            "not UTF-8",
            "bytes that are not UTF-8 (a database in another encoding?); record left out",
            count);
      } else if (fields.size() < CSV_MIN_COLUMNS) {
        boolean atEnd = lines.peek() == null && !lines.endedWithNewline;
        problems.add(
            where,
            atEnd ? "truncated" : "not csvlog",
            atEnd
                ? "record cut off at the end of the file; left out"
                : "not a csvlog record ("
                    + fields.size()
                    + " columns, expected "
                    + CSV_MIN_COLUMNS
                    + " to 26); left out",
            count);
      } else {
        Instant t = time(fields.get(0));
        if (t == null) {
          problems.add(
              where, "bad timestamp", "log_time '" + fields.get(0) + "' unreadable", count);
          continue;
        }
        sink.accept(
            new LogRecord(
                where,
                t,
                blank(fields.get(1)),
                blank(fields.get(2)),
                blank(fields.get(5)),
                blank(fields.get(22)),
                fields.size() > 23 ? blank(fields.get(23)) : null,
                blank(fields.get(11)),
                blank(fields.get(12)),
                fields.get(13),
                blank(fields.get(14)),
                blank(fields.get(19)),
                blank(fields.get(18))));
      }
    }
  }

  // ---- jsonlog

  private void readJson(Lines lines, Consumer<LogRecord> sink) throws IOException {
    Line line;
    while ((line = lines.next()) != null) {
      String where = lines.name + ":" + line.number;
      if (line.text.isBlank()) {
        continue;
      }
      if (line.notUtf8) {
        problems.add(
            where,
            "not UTF-8",
            "bytes that are not UTF-8 (a database in another encoding?); record left out",
            1);
        continue;
      }
      JsonNode n;
      try {
        n = json.readTree(line.text);
      } catch (IOException e) {
        n = null;
      }
      if (n == null || !n.isObject() || !n.has("timestamp")) {
        boolean atEnd = lines.peek() == null && !lines.endedWithNewline;
        problems.add(
            where,
            atEnd ? "truncated" : "not jsonlog",
            atEnd
                ? "record cut off at the end of the file; left out"
                : "not a jsonlog record; left out: " + abbreviate(line.text, 60),
            1);
        continue;
      }
      Instant t = time(n.get("timestamp").asText());
      if (t == null) {
        problems.add(where, "bad timestamp", "timestamp unreadable", 1);
        continue;
      }
      sink.accept(
          new LogRecord(
              where,
              t,
              text(n, "user"),
              text(n, "dbname"),
              text(n, "session_id"),
              text(n, "application_name"),
              text(n, "backend_type"),
              text(n, "error_severity"),
              text(n, "state_code"),
              n.has("message") ? n.get("message").asText() : "",
              text(n, "detail"),
              text(n, "statement"),
              text(n, "context")));
    }
  }

  private static String text(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || v.isNull() ? null : blank(v.asText());
  }

  // ---- stderr

  /** A stderr message being assembled from its line, continuation lines and DETAIL lines. */
  private static final class Pending {
    String where;
    int lines;
    boolean notUtf8;
    Matcher prefix;
    String severity;
    StringBuilder message = new StringBuilder();
    StringBuilder detail;
    StringBuilder query;
    StringBuilder context;
    StringBuilder last;
  }

  private void readStderr(Lines lines, Consumer<LogRecord> sink) throws IOException {
    if (prefixPattern == null) {
      throw new UsageException(
          "--log-line-prefix must carry %c (session id) and %m, %t or %n (timestamp), as"
              + " pgreplay asks, got '"
              + prefix
              + "'");
    }
    Pending p = null;
    Line line;
    while ((line = lines.next()) != null) {
      String where = lines.name + ":" + line.number;
      if (line.text.startsWith("\t") && p != null) {
        p.last.append('\n').append(line.text, 1, line.text.length());
        p.lines++;
        p.notUtf8 |= line.notUtf8;
        continue;
      }
      Matcher m = prefixPattern.matcher(line.text);
      Matcher level = null;
      if (m.lookingAt()) {
        level = STDERR_LEVEL.matcher(line.text.substring(m.end()));
        if (!level.matches()) {
          level = null;
        }
      }
      if (level == null) {
        boolean atEnd = lines.peek() == null && !lines.endedWithNewline;
        problems.add(
            where,
            atEnd ? "truncated" : "not stderr",
            atEnd
                ? "line cut off at the end of the file; left out"
                : "no log_line_prefix '" + prefix + "' and level; left out",
            1);
        continue;
      }
      String lv = level.group("level");
      String text = level.group("text");
      boolean attached =
          p != null
              && switch (lv) {
                case "DETAIL", "HINT", "CONTEXT", "STATEMENT", "QUERY", "LOCATION" ->
                    same(p.prefix, m, "sid");
                default -> false;
              };
      if (attached) {
        p.lines++;
        p.notUtf8 |= line.notUtf8;
        switch (lv) {
          case "DETAIL" -> p.last = p.detail = new StringBuilder(text);
          case "STATEMENT" -> p.last = p.query = new StringBuilder(text);
          case "CONTEXT" -> p.last = p.context = new StringBuilder(text);
          default -> p.last = new StringBuilder(); // hints are not replayed
        }
        continue;
      }
      flush(p, sink);
      p = new Pending();
      p.where = where;
      p.lines = 1;
      p.notUtf8 = line.notUtf8;
      p.prefix = m;
      p.severity = lv;
      p.message.append(text);
      p.last = p.message;
    }
    flush(p, sink);
  }

  private static boolean same(Matcher a, Matcher b, String group) {
    return java.util.Objects.equals(group(a, group), group(b, group));
  }

  private void flush(Pending p, Consumer<LogRecord> sink) {
    if (p == null) {
      return;
    }
    if (p.notUtf8) {
      problems.add(
          p.where,
          "not UTF-8",
          "bytes that are not UTF-8 (a database in another encoding?); record left out",
          p.lines);
      return;
    }
    String ts = group(p.prefix, "ts");
    Instant t = ts != null ? time(ts) : epoch(group(p.prefix, "epoch"));
    if (t == null) {
      problems.add(p.where, "bad timestamp", "timestamp unreadable", p.lines);
      return;
    }
    sink.accept(
        new LogRecord(
            p.where,
            t,
            blank(group(p.prefix, "user")),
            blank(group(p.prefix, "db")),
            blank(group(p.prefix, "sid")),
            blank(group(p.prefix, "app")),
            null,
            p.severity,
            blank(group(p.prefix, "state")),
            p.message.toString(),
            p.detail == null ? null : p.detail.toString(),
            p.query == null ? null : p.query.toString(),
            p.context == null ? null : p.context.toString()));
  }

  private static String group(Matcher m, String name) {
    try {
      return m.group(name);
    } catch (IllegalArgumentException e) {
      return null; // the prefix has no such escape
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
    java.util.Set<String> used = new java.util.HashSet<>();
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
      String g =
          switch (e) {
            case 'm' ->
                named(used, "ts", "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [^ ]+");
            case 't' -> named(used, "ts", "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [^ ]+");
            case 'n' -> named(used, "epoch", "\\d+\\.\\d+");
            case 'c' -> named(used, "sid", "[0-9a-f]+\\.[0-9a-f]+");
            case 'u' -> named(used, "user", ".*?");
            case 'd' -> named(used, "db", ".*?");
            case 'a' -> named(used, "app", ".*?");
            case 'e' -> named(used, "state", "[0-9A-Z]{5}");
            case 'p', 'l', 'P' -> "\\d*";
            case 's' -> "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [^ ]+";
            case '%' -> "%";
            case 'q' -> "";
            default -> ".*?";
          };
      sid |= e == 'c';
      ts |= e == 'm' || e == 't' || e == 'n';
      re.append(g);
    }
    return sid && ts ? Pattern.compile(re.toString()) : null;
  }

  private static String named(java.util.Set<String> used, String name, String re) {
    return used.add(name) ? "(?<" + name + ">" + re + ")" : "(?:" + re + ")";
  }

  // ---- values

  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSS]", Locale.ROOT);
  private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("z", Locale.ROOT);
  private final Map<String, ZoneId> zones = new HashMap<>();

  /**
   * "2024-05-01 12:00:00.123 UTC" as PostgreSQL writes log_timezone. An abbreviation Java does not
   * know is read as UTC: a log has one zone, so the time between statements is the same.
   */
  Instant time(String text) {
    int sp = text.lastIndexOf(' ');
    if (sp < 0) {
      return null;
    }
    LocalDateTime local;
    try {
      local = LocalDateTime.parse(text.substring(0, sp), LOCAL);
    } catch (DateTimeParseException e) {
      return null;
    }
    ZoneId zone = zones.computeIfAbsent(text.substring(sp + 1), LogReader::zone);
    return local.atZone(zone).toInstant();
  }

  private static ZoneId zone(String abbreviation) {
    try {
      return ZoneId.of(abbreviation);
    } catch (RuntimeException e) {
      try {
        return ZoneOffset.of(abbreviation);
      } catch (RuntimeException e2) {
        try {
          return ZoneId.from(ZONE_NAME.parse(abbreviation));
        } catch (RuntimeException e3) {
          return ZoneOffset.UTC;
        }
      }
    }
  }

  private static Instant epoch(String text) {
    if (text == null) {
      return null;
    }
    try {
      double s = Double.parseDouble(text);
      return Instant.ofEpochSecond((long) s, Math.round((s - Math.floor(s)) * 1e9));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String blank(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  static String abbreviate(String s, int n) {
    String one = s.replaceAll("\\p{Cntrl}", "?");
    return one.length() <= n ? one : one.substring(0, n) + "...";
  }

  // ---- physical lines

  /** A physical line, decoded; text as Latin-1 when its bytes are not UTF-8. */
  private record Line(int number, String text, boolean notUtf8) {}

  /** Lines split on LF from raw bytes, so one bad byte spoils one line, not the file. */
  private static final class Lines implements Closeable {
    final String name;
    private final InputStream in;
    private int number;
    private Line peeked;
    boolean endedWithNewline = true;

    Lines(InputStream in, String name) {
      this.in = new BufferedInputStream(in, 1 << 16);
      this.name = name;
    }

    /** The number of the line last returned by {@link #next()}. */
    int number() {
      return number;
    }

    Line peek() throws IOException {
      if (peeked == null) {
        peeked = read();
      }
      return peeked;
    }

    Line next() throws IOException {
      Line l = peek();
      peeked = null;
      if (l != null) {
        number = l.number;
      }
      return l;
    }

    private int read = 0;

    private Line read() throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream(256);
      int c;
      boolean any = false;
      while ((c = in.read()) != -1) {
        any = true;
        if (c == '\n') {
          break;
        }
        b.write(c);
      }
      if (!any) {
        return null;
      }
      endedWithNewline = c == '\n';
      byte[] bytes = b.toByteArray();
      int len = bytes.length;
      if (len > 0 && bytes[len - 1] == '\r') {
        len--;
      }
      read++;
      try {
        String s =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, 0, len))
                .toString();
        return new Line(read, s, false);
      } catch (CharacterCodingException e) {
        return new Line(read, new String(bytes, 0, len, StandardCharsets.ISO_8859_1), true);
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
