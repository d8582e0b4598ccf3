package dev.wg1bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * This JVM's CPU time, all its threads (workload, driver, JMH, GC): the client's own cost, which a
 * benchmark and a replay both report so that it can be set beside pgbench's and the server's.
 */
public final class ProcessCpu {
  private ProcessCpu() {}

  /**
   * CPU nanoseconds this JVM has used so far; 0 where the JVM does not say (then never known). It
   * moves in steps of the OS clock tick (the JDK reads {@code times()}: 10 ms on Linux, measured on
   * Java 17 and 25), so a difference over a short replay or window is that coarse, and one under a
   * tick of CPU reads 0.
   */
  public static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }

  /** The cores this JVM may run on. */
  public static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }
}
