package dev.wg1bench.load.ssb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * The SSB date table (section 11) and the 12.1 date list shared with lineorder, whose order and
 * commit dates are indexes into it. Stateless: no random stream is drawn from.
 */
final class SsbDates {
  private SsbDates() {}

  /** Days 1992-01-01 .. 1998-12-31 (11.1, 12.1). */
  static final int FULL_DATE_DAYS = 2557;

  private static final LocalDate FIRST_DAY = LocalDate.of(1992, 1, 1);

  /** The 12.1 date list as YYYYMMDD bytes, shared by all instances. */
  static final byte[][] DATE_KEYS = buildDateKeys();

  private static final byte[][] MONTHS =
      asciiAll(
          "January",
          "February",
          "March",
          "April",
          "May",
          "June",
          "July",
          "August",
          "September",
          "October",
          "November",
          "December");
  private static final byte[][] WEEKDAYS =
      asciiAll("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday");
  private static final byte[] CHRISTMAS = ascii("Christmas");
  private static final byte[] SUMMER = ascii("Summer");
  private static final byte[] WINTER = ascii("Winter");
  private static final byte[] SPRING = ascii("Spring");
  private static final byte[] FALL = ascii("Fall");
  private static final byte[] EMPTY = new byte[0];

  /** Writes date rows first..last; row k is day k of the list. */
  static void write(long first, long last, RowWriter w) throws IOException {
    for (long k = first; k <= last; k++) {
      LocalDate day = FIRST_DAY.plusDays(k - 1);
      int y = day.getYear();
      int mo = day.getMonthValue();
      int d = day.getDayOfMonth();
      int doy = day.getDayOfYear();
      int wd = day.getDayOfWeek().getValue() % 7; // Sunday = 0
      int dnw = ((wd + 1) % 7) + 1;
      byte[] month = MONTHS[mo - 1];

      w.raw(DATE_KEYS[(int) (k - 1)]);
      w.sep();
      w.raw(month);
      w.rawByte((byte) ' ');
      w.rawNum(d);
      w.rawByte((byte) ',');
      w.rawByte((byte) ' ');
      w.rawNum(y);
      w.sep();
      w.str(WEEKDAYS[dnw - 1]);
      w.str(month);
      w.num(y);
      w.num(y * 100L + mo);
      w.raw(month, 0, 3);
      w.rawNum(y);
      w.sep();
      w.num(dnw);
      w.num(d);
      w.num(doy);
      w.num(mo);
      w.num(doy / 7 + 1);
      w.str(season(mo, d));
      w.chr(dnw == 7 ? (byte) '1' : (byte) '0');
      w.chr(d == day.lengthOfMonth() ? (byte) '1' : (byte) '0');
      w.chr(holiday(mo, d) ? (byte) '1' : (byte) '0');
      w.chr(dnw == 1 || dnw == 7 ? (byte) '0' : (byte) '1');
      w.endRow();
    }
  }

  /** Selling season: first matching entry of the 11.2 list. */
  private static byte[] season(int mo, int d) {
    if (mo >= 11 && mo <= 12 && d <= 31) {
      return CHRISTMAS;
    }
    if (mo >= 5 && mo <= 8 && d <= 31) {
      return SUMMER;
    }
    if (mo >= 1 && mo <= 3 && d <= 31) {
      return WINTER;
    }
    if (mo == 4 && d <= 30) {
      return SPRING;
    }
    if (mo >= 9 && mo <= 10 && d <= 31) {
      return FALL;
    }
    return EMPTY;
  }

  private static boolean holiday(int mo, int d) {
    if (mo == 12 && d == 24) {
      return true;
    }
    if (mo == 1 && d == 1) {
      return true;
    }
    return d == 20 && mo != 1 && mo != 3 && mo != 6 && mo != 12;
  }

  private static byte[][] buildDateKeys() {
    byte[][] keys = new byte[FULL_DATE_DAYS][];
    for (int i = 0; i < FULL_DATE_DAYS; i++) {
      LocalDate day = FIRST_DAY.plusDays(i);
      int v = day.getYear() * 10000 + day.getMonthValue() * 100 + day.getDayOfMonth();
      byte[] b = new byte[8];
      for (int j = 7; j >= 0; j--) {
        b[j] = (byte) ('0' + v % 10);
        v /= 10;
      }
      keys[i] = b;
    }
    return keys;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[][] asciiAll(String... s) {
    byte[][] b = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      b[i] = ascii(s[i]);
    }
    return b;
  }
}
