package dev.wg1bench.history.format;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times as Otava files write them. Otava reads its time column with a lenient date parser; the
 * forms its docs, examples and tests use are read here: seconds since 1970 ({@code 1609466400}),
 * {@code 2024.01.01 3:00:00 +0100}, Otava's own output {@code 2024-01-01 02:00:00 +0000}, and ISO
 * 8601 ({@code 2024-01-01T02:00:00Z}). A time without an offset is UTC.
 */
final class OtavaTime {
  private OtavaTime() {}

  /** What a time cell may look like, for the message that rejects one. */
  static final String FORMS =
      "seconds since 1970, 'YYYY-MM-DD HH:MM:SS +ZZZZ' (also with . or / in the date, or T), or a"
          + " date";

  private static final Pattern EPOCH = Pattern.compile("\\d{1,12}(\\.\\d+)?");

  private static final Pattern DATE_TIME =
      Pattern.compile(
          "(\\d{4})[-./](\\d{1,2})[-./](\\d{1,2})"
              + "(?:[T ]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?)?"
              + "\\s*(Z|UTC|GMT|[+-]\\d{2}(?::?\\d{2})?)?");

  /** Otava's own output form, which Otava reads back. */
  private static final DateTimeFormatter WRITTEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** The instant, or null when the text is none of {@link #FORMS}. */
  static Instant parse(String text) {
    String t = text.strip();
    if (EPOCH.matcher(t).matches()) {
      BigDecimal s = new BigDecimal(t);
      return Instant.ofEpochSecond(
          s.longValue(), s.remainder(BigDecimal.ONE).movePointRight(9).longValue());
    }
    Matcher m = DATE_TIME.matcher(t);
    if (!m.matches()) {
      return null;
    }
    try {
      LocalDate date =
          LocalDate.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)));
      LocalTime time = LocalTime.MIDNIGHT;
      if (m.group(4) != null) {
        String nanos = m.group(7) == null ? "0" : (m.group(7) + "00000000").substring(0, 9);
        time =
            LocalTime.of(
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)),
                m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
                Integer.parseInt(nanos));
      }
      return OffsetDateTime.of(date, time, offset(m.group(8))).toInstant();
    } catch (DateTimeException e) {
      // 2024-02-30, 25:00
      return null;
    }
  }

  private static ZoneOffset offset(String z) {
    if (z == null || z.equals("Z") || z.equals("UTC") || z.equals("GMT")) {
      return ZoneOffset.UTC;
    }
    String digits = z.replace(":", "");
    int hours = Integer.parseInt(digits.substring(1, 3));
    int minutes = digits.length() > 3 ? Integer.parseInt(digits.substring(3, 5)) : 0;
    int sign = z.startsWith("-") ? -1 : 1;
    return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
  }

  /** The time as Otava prints it (whole seconds, UTC), which both Otava and this class read. */
  static String format(Instant t) {
    return WRITTEN.format(t);
  }
}
