package dev.wg1bench.replay.log;

import static dev.wg1bench.replay.log.CsvColumn.APPLICATION_NAME;
import static dev.wg1bench.replay.log.CsvColumn.BACKEND_TYPE;
import static dev.wg1bench.replay.log.CsvColumn.CONTEXT;
import static dev.wg1bench.replay.log.CsvColumn.DATABASE_NAME;
import static dev.wg1bench.replay.log.CsvColumn.DETAIL;
import static dev.wg1bench.replay.log.CsvColumn.ERROR_SEVERITY;
import static dev.wg1bench.replay.log.CsvColumn.LOG_TIME;
import static dev.wg1bench.replay.log.CsvColumn.MESSAGE;
import static dev.wg1bench.replay.log.CsvColumn.QUERY;
import static dev.wg1bench.replay.log.CsvColumn.SESSION_ID;
import static dev.wg1bench.replay.log.CsvColumn.SQL_STATE_CODE;
import static dev.wg1bench.replay.log.CsvColumn.TRANSACTION_ID;
import static dev.wg1bench.replay.log.CsvColumn.USER_NAME;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * csvlog of every version since 8.3, its columns read by name ({@link CsvColumn}): a version
 * without application_name or backend_type gives null for them.
 */
final class CsvLogReader implements FormatReader {
  private static final Pattern START =
      Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? [A-Za-z0-9+:-]+,");

  private final Problems problems;
  private final LogTime time;

  CsvLogReader(Problems problems, LogTime time) {
    this.problems = problems;
    this.time = time;
  }

  @Override
  public LogFormat format() {
    return LogFormat.CSVLOG;
  }

  @Override
  public boolean recognizes(LogLines.Line first) {
    return START.matcher(first.text()).find();
  }

  /** The fields of one record, which may span lines, and where it is. */
  private record Fields(List<String> values, int start, int lines, boolean cutOff, boolean bad) {}

  @Override
  public void read(LogLines lines, Consumer<LogRecord> sink) throws IOException {
    boolean first = true;
    Fields f;
    while ((f = fields(lines)) != null) {
      String where = lines.name + ":" + f.start;
      int n = f.values.size();
      if (f.cutOff || (!CsvColumn.knownLayout(n) && lines.cutOffAtEnd())) {
        problems.add(where, "truncated", CUT_OFF, f.lines);
      } else if (f.bad) {
        problems.add(where, "not UTF-8", NOT_UTF8, f.lines);
      } else if (!CsvColumn.knownLayout(n)) {
        String what =
            "not a csvlog record ("
                + n
                + (n == 1 ? " column" : " columns")
                + "; csvlog has "
                + CsvColumn.layouts()
                + ")";
        if (first) {
          throw FormatReader.notThisFormat(where, what);
        }
        problems.add(where, "not csvlog", what + "; left out", f.lines);
      } else {
        record(where, f, sink);
      }
      first = false;
    }
  }

  private void record(String where, Fields f, Consumer<LogRecord> sink) {
    List<String> v = f.values;
    Instant t = time.parse(LOG_TIME.raw(v));
    if (t == null) {
      problems.add(
          where,
          "bad timestamp",
          "log_time '" + LogReader.abbreviate(LOG_TIME.raw(v), 40) + "' unreadable",
          f.lines);
      return;
    }
    sink.accept(
        new LogRecord(
            where,
            t,
            USER_NAME.of(v),
            DATABASE_NAME.of(v),
            SESSION_ID.of(v),
            APPLICATION_NAME.of(v),
            BACKEND_TYPE.of(v),
            ERROR_SEVERITY.of(v),
            SQL_STATE_CODE.of(v),
            MESSAGE.raw(v),
            DETAIL.of(v),
            QUERY.of(v),
            CONTEXT.of(v),
            FormatReader.transactionId(TRANSACTION_ID.of(v))));
  }

  /**
   * Splits the next record into its fields, null at the end of the file; a quoted field goes on
   * past the line (multi-line SQL).
   */
  private static Fields fields(LogLines lines) throws IOException {
    LogLines.Line line = lines.next();
    if (line == null) {
      return null;
    }
    int start = line.number();
    boolean bad = line.notUtf8();
    List<String> values = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    String text = line.text();
    while (true) {
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (quoted && c == '"') {
          boolean doubled = i + 1 < text.length() && text.charAt(i + 1) == '"';
          if (doubled) {
            f.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else if (quoted) {
          f.append(c);
        } else if (c == '"') {
          quoted = true;
        } else if (c == ',') {
          values.add(f.toString());
          f.setLength(0);
        } else {
          f.append(c);
        }
      }
      if (!quoted) {
        values.add(f.toString());
        return new Fields(values, start, lines.number() - start + 1, false, bad);
      }
      LogLines.Line more = lines.next();
      if (more == null) {
        return new Fields(values, start, lines.number() - start + 1, true, bad);
      }
      bad |= more.notUtf8();
      f.append('\n');
      text = more.text();
    }
  }
}
