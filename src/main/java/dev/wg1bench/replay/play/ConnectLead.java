package dev.wg1bench.replay.play;

/**
 * How long before its logged time a session's connection is opened, so that it is open when the log
 * says it was: the longest of the replay's own last {@link #KEPT} connects, from before the first
 * is timed {@link #INITIAL_NANOS}, never over {@link #MAX_NANOS}.
 *
 * <p>Why: pgjdbc's connect on loopback took 7-25 ms on the 2-core development machine where the
 * capture's libpq took 1-2 ms, and the first statement of every session came that late. An unpaced
 * log never catches up a lag: its sessions were as busy as the server let them be, so a lag of its
 * first statements stayed to its end (bench/results/2026-12-06-replay-connect-ahead.md).
 */
final class ConnectLead {
  /** The lead before any connect of this replay has been timed. */
  static final long INITIAL_NANOS = 25_000_000L;

  /** Bounded: a connect that took long (a server starting up) does not open the rest early. */
  static final long MAX_NANOS = 200_000_000L;

  /** Connects remembered: enough to see the tail of a loaded machine, few enough to follow it. */
  static final int KEPT = 16;

  private final long[] last = new long[KEPT];
  private int count;
  private long longestUsed;

  /** A connect of this replay took {@code nanos}, from its thread's start to the open session. */
  synchronized void took(long nanos) {
    last[count++ % KEPT] = Math.max(0, nanos);
  }

  /** The lead for the next connection, in ns; remembered as used ({@link #longestUsed}). */
  synchronized long next() {
    long lead = INITIAL_NANOS;
    if (count > 0) {
      lead = 0;
      for (int i = 0; i < Math.min(count, KEPT); i++) {
        lead = Math.max(lead, last[i]);
      }
    }
    lead = Math.min(lead, MAX_NANOS);
    longestUsed = Math.max(longestUsed, lead);
    return lead;
  }

  /** The longest lead any connection of this replay was given, in ns. */
  synchronized long longestUsed() {
    return longestUsed;
  }
}
