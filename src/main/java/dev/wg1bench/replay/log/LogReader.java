package dev.wg1bench.replay.log;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads server logs into {@link LogRecord}s: opens each as its user has it ({@link LogInput}:
 * compressed, on stdin, with a BOM), tells its format from its first line and hands it to that
 * format's {@link FormatReader}. Records that cannot be read are reported in {@link Problems}; a
 * file of no known format is one usage error.
 */
public final class LogReader {
  /**
   * The log_line_prefix replay recommends for stderr logs: timestamp, user, database, session id
   * and SQLSTATE, so replayed errors are compared by code and not only counted.
   */
  public static final String DEFAULT_PREFIX = "%m|%u|%d|%c|%e|";

  /** pgreplay's prefix, without SQLSTATE: logs captured for pgreplay are read as they are. */
  public static final String CLASSIC_PREFIX = "%m|%u|%d|%c|";

  /** The log_line_prefixes tried on stderr logs, quoted, for messages. */
  private final String tried;

  private final LogFormat forced;

  /** Every reader in the order formats are tried on a first line; stderr once per prefix. */
  private final List<FormatReader> readers = new ArrayList<>();

  /**
   * @param forced the format all files are in, or null to recognize each file's from its first line
   * @param linePrefix log_line_prefix of stderr logs, or null to try {@link #DEFAULT_PREFIX} and
   *     then {@link #CLASSIC_PREFIX} on each file's first line
   */
  public LogReader(Problems problems, LogFormat forced, String linePrefix) {
    this.forced = forced;
    LogTime time = new LogTime();
    List<String> prefixes =
        linePrefix == null ? List.of(DEFAULT_PREFIX, CLASSIC_PREFIX) : List.of(linePrefix);
    String tried = "'" + String.join("' or '", prefixes) + "'";
    readers.add(new JsonLogReader(problems, time));
    for (String p : prefixes) {
      readers.add(new StderrLogReader(problems, time, p, tried));
    }
    readers.add(new CsvLogReader(problems, time));
    this.tried = tried;
  }

  /**
   * Reads one log, "-" being standard input; returns the format it was read as. An empty log gives
   * no record. A missing file throws {@link java.nio.file.NoSuchFileException}; a file of no known
   * format, or whose compressed data is corrupt, a {@link UsageException} naming it.
   */
  public LogFormat read(Path file, Consumer<LogRecord> sink) throws IOException {
    try (LogInput in = LogInput.open(file);
        LogLines lines = new LogLines(in.text(), in.name)) {
      try {
        return read(lines, sink);
      } catch (IOException e) {
        if (in.corrupt()) {
          throw in.corruptAfter(e, lines.number());
        }
        throw e;
      }
    }
  }

  private LogFormat read(LogLines lines, Consumer<LogRecord> sink) throws IOException {
    LogLines.Line first = lines.peek();
    while (first != null && first.text().isBlank() && !first.notUtf8()) {
      lines.next();
      first = lines.peek();
    }
    if (first == null) {
      return forced == null ? LogFormat.CSVLOG : forced;
    }
    FormatReader reader = readerFor(lines.name, first);
    reader.read(lines, sink);
    return reader.format();
  }

  /** The reader of the forced format, or the first whose format the line is in. */
  private FormatReader readerFor(String name, LogLines.Line first) {
    FormatReader fallback = null;
    for (FormatReader r : readers) {
      if (forced != null && r.format() != forced) {
        continue;
      }
      if (r.recognizes(first)) {
        return r;
      }
      fallback = fallback == null ? r : fallback;
    }
    if (forced != null) {
      return fallback; // it says why the line is not of its format
    }
    throw new UsageException(name + ":" + first.number() + ": " + unknown(first));
  }

  private String unknown(LogLines.Line first) {
    String which = "not a csvlog, jsonlog or stderr log";
    if (binary(first)) {
      return which
          + ": binary data (compressed other than by gzip, bzip2, xz or zstd? UTF-16 text?)";
    }
    String start = first.notUtf8() ? first.text().replaceAll("[^ -~]", "?") : first.text();
    return which
        + " with log_line_prefix "
        + tried
        + " (use --log-line-prefix for another prefix); line starts: "
        + abbreviate(start, 60);
  }

  /** Control characters but tab in a first line: not a text log, and not to be printed. */
  private static boolean binary(LogLines.Line first) {
    return first.text().chars().anyMatch(c -> (c < ' ' && c != '\t') || c == 0x7f);
  }

  /** {@code s} on one line of at most {@code n} characters, control characters as '?'. */
  public static String abbreviate(String s, int n) {
    String one = s.replaceAll("\\p{C}", "?");
    return one.length() <= n ? one : one.substring(0, n) + "...";
  }
}
