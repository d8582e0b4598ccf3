package dev.wg1bench.replay.log;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** The timestamps of a log as PostgreSQL writes them, in log_timezone; one per log reader. */
final class LogTime {
  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSS]", Locale.ROOT);
  private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("z", Locale.ROOT);

  /** A log has one or two zone abbreviations (daylight saving): each looked up once. */
  private final Map<String, ZoneId> zones = new HashMap<>();

  /**
   * "2024-05-01 12:00:00.123 UTC" (csvlog, jsonlog, %m) or without milliseconds (%t); null when
   * unreadable. An abbreviation Java does not know is read as UTC: a log has one zone, so the time
   * between statements is the same.
   */
  Instant parse(String text) {
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
    ZoneId zone = zones.computeIfAbsent(text.substring(sp + 1), LogTime::zone);
    return local.atZone(zone).toInstant();
  }

  /** %n: seconds since the epoch with milliseconds, "1714564800.123"; null when unreadable. */
  static Instant epoch(String text) {
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
}
