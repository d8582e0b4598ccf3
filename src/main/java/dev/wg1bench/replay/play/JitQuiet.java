package dev.wg1bench.replay.play;

import java.lang.management.ManagementFactory;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Waits, before a trial's clock and CPU count start, until HotSpot's compilers have nothing queued
 * or in progress: what the trial's own set-up queued (its {@link Schedule}, the order's arrays) is
 * compiled before the trial, not on the cores the trial's sessions share.
 *
 * <p>Why: by a trial, the warm-up's passes had built a schedule often enough that the trial's build
 * queued C2's compile of {@code Schedule.<init>}, which then ran in the trial's first second: 314
 * ms of compiler CPU on the 64-client paced log, a third of the client CPU the trial reported per
 * statement (26 of 80 us), for code the trial never ran again (per-thread CPU from /proc and the
 * compile log's stamps, bench/results/2026-12-06-replay-jit-quiet.md). The set-up's own CPU was
 * never counted; its compile is the same set-up.
 *
 * <p>The queue is read through the JVM's diagnostic command {@code Compiler.queue} (what {@code
 * jcmd PID Compiler.queue} prints). On a JVM without it nothing waits.
 */
final class JitQuiet {
  /** How often the queue is read while it is not empty. */
  static final long POLL_MS = 10;

  /**
   * Bounded: a JVM compiling for other reasons (a test beside the replay) does not hold it long.
   */
  static final long MAX_MS = 3_000;

  private JitQuiet() {}

  /**
   * Returns once the compilers are idle, or after {@link #MAX_MS}, or once {@code stopped} (the
   * replay told to stop), or at once where the queue cannot be read; returns false only when the
   * bound ran out with compiles still queued or running, so that the trial can say its first
   * seconds shared the cores with them.
   */
  static boolean await(BooleanSupplier stopped) throws InterruptedException {
    return await(stopped, JitQuiet::queue, MAX_MS);
  }

  static boolean await(BooleanSupplier stopped, Supplier<String> queues, long maxMs)
      throws InterruptedException {
    long deadline = System.nanoTime() + maxMs * 1_000_000;
    while (!stopped.getAsBoolean()) {
      String queue = queues.get();
      if (queue == null || idle(queue)) {
        return true;
      }
      if (System.nanoTime() >= deadline) {
        return false;
      }
      Thread.sleep(POLL_MS);
    }
    return true;
  }

  /**
   * Whether {@code Compiler.queue}'s text says nothing is compiling and nothing is queued: the
   * lines after "Current compiles:" up to the first queue are blank, and every queue is "Empty".
   */
  static boolean idle(String queue) {
    String[] lines = queue.split("\n");
    boolean inCurrent = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.startsWith("Current compiles:")) {
        inCurrent = true;
        line = line.substring("Current compiles:".length()).strip();
      } else if (line.endsWith("compile queue:")) {
        inCurrent = false;
        if (i + 1 >= lines.length || !lines[i + 1].strip().equals("Empty")) {
          return false;
        }
        continue;
      }
      if (inCurrent && !line.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** {@code Compiler.queue}'s text, or null where this JVM does not have the command. */
  static String queue() {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Object text =
          server.invoke(
              new ObjectName("com.sun.management:type=DiagnosticCommand"),
              "compilerQueue",
              new Object[] {null},
              new String[] {String[].class.getName()});
      return text instanceof String s ? s : null;
    } catch (Exception | LinkageError e) {
      // not HotSpot, or no management: nothing to wait for that can be seen
      return null;
    }
  }
}
