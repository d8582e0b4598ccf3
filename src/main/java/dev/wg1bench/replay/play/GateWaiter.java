package dev.wg1bench.replay.play;

/** A session waiting at the {@link OrderGate}. */
final class GateWaiter {
  final Thread thread = Thread.currentThread();
  final int session;
  final int startRank;
  final int endsNeeded;

  /** Which ends it waits for. */
  final OrderGate.Needs needs;

  final String where;
  final long since = System.nanoTime();
  volatile boolean passed;
  volatile String broken;

  /** nanoTime at which another session's mark let it pass and unparked it. */
  volatile long wokenAt;

  /** nanoTime of the event that mark stands for (a statement's end as its reply came in). */
  volatile long markedAt;

  GateWaiter(int session, int startRank, int endsNeeded, OrderGate.Needs needs, String where) {
    this.needs = needs;
    this.where = where;
    this.session = session;
    this.startRank = startRank;
    this.endsNeeded = endsNeeded;
  }
}
