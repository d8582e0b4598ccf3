package dev.wg1bench.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether the user interrupted the run, and the end of its JMH forks when that happens. Ctrl-C in a
 * terminal reaches the fork too (the same process group), but a SIGINT or SIGTERM sent to wg1bench
 * alone (kill, a CI runner, a service manager) does not: the fork, an orphan, went on running its
 * clients for the rest of the trial's duration against a server that was being stopped. The JVM's
 * shutdown ends the forks first, so that the servers' own shutdown hooks stop servers no client
 * holds any more.
 */
final class Interrupt {
  private static volatile boolean requested;

  /** How long a fork may take to end on SIGTERM before it is killed. */
  static final long FORK_GRACE_MS = 3_000;

  static {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(Interrupt::onShutdown, "wg1bench-interrupt"));
    } catch (IllegalStateException e) {
      requested = true; // already shutting down
    }
  }

  private Interrupt() {}

  /** Loads this class, so the hook is in place before a trial starts. */
  static void arm() {}

  private static void onShutdown() {
    requested = true;
    List<ProcessHandle> forks = forks();
    if (forks.isEmpty()) {
      return;
    }
    System.err.println(
        "wg1bench: stopping: ending " + forks.size() + " JMH fork(s), then the servers it started");
    forks.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FORK_GRACE_MS);
    for (ProcessHandle f : forks) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          f.onExit().get(left, TimeUnit.NANOSECONDS);
        }
      } catch (Exception e) {
        // still running (or the wait was interrupted): killed below
      }
      if (f.isAlive()) {
        f.destroyForcibly();
      }
    }
  }

  /** This JVM's JMH forks still running (a trial runs one at a time). */
  static List<ProcessHandle> forks() {
    return ProcessHandle.current()
        .descendants()
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .map(c -> c.contains("org.openjdk.jmh.runner.ForkedMain"))
                    .orElse(false))
        .toList();
  }

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
