package dev.wg1bench.replay.log;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The reader of one log format. A record that cannot be read (cut off, bytes that are not UTF-8) is
 * left out and reported with its file:line in {@link Problems}, never thrown: one bad line must not
 * cost the rest of a capture. But a first record not of the format is a usage error for the whole
 * file, one message rather than one per record, since nothing of it could be replayed.
 */
interface FormatReader {
  String NOT_UTF8 = "bytes that are not UTF-8 (a database in another encoding?); record left out";
  String CUT_OFF = "record cut off at the end of the file; left out";

  LogFormat format();

  /** Whether a file's first line looks like this format: a quick look to pick the reader. */
  boolean recognizes(LogLines.Line first);

  /** Reads every record of the file into {@code sink}. */
  void read(LogLines lines, Consumer<LogRecord> sink) throws IOException;

  /** The usage error for a file whose first record, at {@code where}, is not of this format. */
  static UsageException notThisFormat(String where, String what) {
    return new UsageException(
        where + ": " + what + " (use --format for another format; see --capture-settings)");
  }

  /** Empty log fields as null, as the other formats leave them out. */
  static String blank(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** A logged transaction id, 0 when absent or not a number (a prefix's %x can be anything). */
  static long transactionId(String s) {
    if (s == null || s.isEmpty() || s.length() > 18) {
      return 0;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!Character.isDigit(s.charAt(i))) {
        return 0;
      }
    }
    return Long.parseLong(s);
  }
}
