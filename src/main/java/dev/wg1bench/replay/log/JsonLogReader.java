package dev.wg1bench.replay.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.util.function.Consumer;

/** jsonlog (PostgreSQL 15+): one JSON object a line, keys left out when empty. */
final class JsonLogReader implements FormatReader {
  private final Problems problems;
  private final LogTime time;
  private final ObjectMapper json = new ObjectMapper();

  JsonLogReader(Problems problems, LogTime time) {
    this.problems = problems;
    this.time = time;
  }

  @Override
  public LogFormat format() {
    return LogFormat.JSONLOG;
  }

  @Override
  public boolean recognizes(LogLines.Line first) {
    return first.text().startsWith("{");
  }

  @Override
  public void read(LogLines lines, Consumer<LogRecord> sink) throws IOException {
    boolean first = true;
    LogLines.Line line;
    while ((line = lines.next()) != null) {
      String where = lines.where();
      if (line.text().isBlank()) {
        continue;
      }
      if (line.notUtf8()) {
        problems.add(where, "not UTF-8", NOT_UTF8, 1);
      } else {
        JsonNode n = parse(line.text());
        if (n != null) {
          record(where, n, sink);
        } else if (lines.cutOffAtEnd()) {
          problems.add(where, "truncated", CUT_OFF, 1);
        } else if (first) {
          throw FormatReader.notThisFormat(
              where, "not a jsonlog record (a JSON object with a \"timestamp\" on one line)");
        } else {
          problems.add(
              where,
              "not jsonlog",
              "not a jsonlog record; left out: " + LogReader.abbreviate(line.text(), 60),
              1);
        }
      }
      first = false;
    }
  }

  /** The line's object when it is a jsonlog record, else null. */
  private JsonNode parse(String text) {
    try {
      JsonNode n = json.readTree(text);
      return n != null && n.isObject() && n.has("timestamp") ? n : null;
    } catch (IOException e) {
      return null;
    }
  }

  private void record(String where, JsonNode n, Consumer<LogRecord> sink) {
    Instant t = time.parse(n.get("timestamp").asText());
    if (t == null) {
      problems.add(where, "bad timestamp", "timestamp unreadable", 1);
      return;
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
            text(n, "context"),
            FormatReader.transactionId(text(n, "txid"))));
  }

  private static String text(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || v.isNull() ? null : FormatReader.blank(v.asText());
  }
}
