package dev.wg1bench.replay.log;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What could not be read or replayed from a log, each a one-line "file:line: what" message, and the
 * count of physical lines skipped (always in the result, even when the messages are cut short).
 */
public final class Problems {
  /** Messages kept in full; beyond this only counted, so a broken log cannot flood the console. */
  static final int KEPT = 50;

  private final List<String> messages = new ArrayList<>();
  private final Map<String, Long> byReason = new LinkedHashMap<>();
  private long skippedLines;
  private long reported;

  /** A problem at {@code where}; {@code lines} physical lines of the log are left out for it. */
  public synchronized void add(String where, String reason, String what, long lines) {
    skippedLines += lines;
    reported++;
    byReason.merge(reason, 1L, Long::sum);
    if (messages.size() < KEPT) {
      messages.add(where + ": " + what);
    }
  }

  public synchronized long skippedLines() {
    return skippedLines;
  }

  /** Problems found, including those beyond the {@link #KEPT} messages. */
  public synchronized long count() {
    return reported;
  }

  public synchronized List<String> messages() {
    return List.copyOf(messages);
  }

  /** Count per short reason ("truncated", "not UTF-8", "parameters missing", ...). */
  public synchronized Map<String, Long> byReason() {
    return new LinkedHashMap<>(byReason);
  }
}
