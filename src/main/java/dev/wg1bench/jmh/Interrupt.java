package dev.wg1bench.jmh;

/**
 * Whether the user interrupted the run (Ctrl-C starts the JVM's shutdown, which also ends the JMH
 * fork): a trial cut short that way must say so, not blame a client that could not connect.
 */
final class Interrupt {
  private static volatile boolean requested;

  static {
    try {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> requested = true, "wg1bench-interrupt"));
    } catch (IllegalStateException e) {
      requested = true; // already shutting down
    }
  }

  private Interrupt() {}

  /** Loads this class, so the hook is in place before a trial starts. */
  static void arm() {}

  /**
   * Whether shutdown began; waits a moment first, as the fork dies of the same Ctrl-C a little
   * before this JVM's shutdown hooks run.
   */
  static boolean requested() {
    if (!requested) {
      try {
        Thread.sleep(300);
      } catch (InterruptedException e) {
        return true;
      }
    }
    return requested;
  }
}
