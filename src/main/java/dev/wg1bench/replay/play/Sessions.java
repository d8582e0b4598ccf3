package dev.wg1bench.replay.play;

import java.util.concurrent.atomic.AtomicIntegerArray;

/** What each replayed session is doing now, and its backend's pid: what the watchdog reads. */
final class Sessions {
  static final int NOT_STARTED = 0;
  static final int SLEEPING = 1;
  static final int ORDER = 2;
  static final int POOL = 3;
  static final int RUNNING = 4;
  static final int DONE = 5;

  private final AtomicIntegerArray state;
  private final AtomicIntegerArray pid;
  private final AtomicIntegerArray holds;
  private final AtomicIntegerArray inTransaction;

  Sessions(int n) {
    state = new AtomicIntegerArray(n);
    pid = new AtomicIntegerArray(n);
    holds = new AtomicIntegerArray(n);
    inTransaction = new AtomicIntegerArray(n);
  }

  /** Whether the session's connection is inside a transaction block now (it may hold row locks). */
  void inTransaction(int session, boolean open) {
    inTransaction.set(session, open ? 1 : 0);
  }

  boolean inTransaction(int session) {
    return inTransaction.get(session) == 1;
  }

  /**
   * True when a session inside a transaction block waits at the order while another one runs a
   * statement: the only shape a lock cycle through the order can have (a session outside a block
   * holds no row lock, and a blocked statement is a running one).
   */
  boolean lockCyclePossible() {
    boolean holderWaits = false;
    boolean running = false;
    for (int i = 0; i < state.length(); i++) {
      int s = state.get(i);
      holderWaits |= s == ORDER && inTransaction.get(i) == 1;
      running |= s == RUNNING;
    }
    return holderWaits && running;
  }

  /** Whether the session holds a pooled connection (or a connection of its own) now. */
  void holds(int session, boolean held) {
    holds.set(session, held ? 1 : 0);
  }

  boolean holds(int session) {
    return holds.get(session) == 1;
  }

  void set(int session, int s) {
    state.set(session, s);
  }

  int get(int session) {
    return state.get(session);
  }

  void pid(int session, int backend) {
    pid.set(session, backend);
  }

  int pid(int session) {
    return pid.get(session);
  }

  int size() {
    return state.length();
  }

  /**
   * True when some session has started and every started one that has not ended waits, at the order
   * or for a pooled connection: nothing can make progress on its own.
   */
  boolean allWaiting() {
    boolean any = false;
    for (int i = 0; i < state.length(); i++) {
      int s = state.get(i);
      if (s == SLEEPING || s == RUNNING) {
        return false;
      }
      any |= s == ORDER || s == POOL;
    }
    return any;
  }
}
