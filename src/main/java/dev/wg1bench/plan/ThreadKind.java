package dev.wg1bench.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the clients run on: platform threads (one OS thread blocked in each client's socket read) or
 * virtual threads, the way Java 21+ applications increasingly run their JDBC calls (Spring Boot
 * 3.2+ spring.threads.virtual.enabled, Quarkus @RunOnVirtualThread, Helidon 4).
 */
public enum ThreadKind {
  PLATFORM,
  VIRTUAL;

  /** The first Java feature release with virtual threads final (JEP 444). */
  public static final int VIRTUAL_SINCE = 21;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ThreadKind parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (ThreadKind k : values()) {
      if (k.cliName().equals(t)) {
        return k;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of " + valid());
  }

  public static String valid() {
    return Arrays.stream(values()).map(ThreadKind::cliName).collect(Collectors.joining(", "));
  }

  /**
   * A new, unstarted thread of this kind running {@code task}: a daemon platform thread, or a
   * virtual thread (always a daemon). Compiled for Java 17, so the virtual-thread API is reached by
   * reflection, only on a runtime that has it ({@link #checkRuntime} refuses an older one first).
   */
  public Thread newThread(Runnable task, String name) {
    if (this == VIRTUAL) {
      try {
        Object b = Thread.class.getMethod("ofVirtual").invoke(null);
        Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
        b = ofVirtual.getMethod("name", String.class).invoke(b, name);
        return (Thread) ofVirtual.getMethod("unstarted", Runnable.class).invoke(b, task);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("this runtime has no virtual threads: " + e, e);
      }
    }
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    return t;
  }

  /** The runtime can run this kind: virtual threads need Java 21 or later. */
  public void checkRuntime() {
    if (this == VIRTUAL && Runtime.version().feature() < VIRTUAL_SINCE) {
      throw new UsageException(
          "--threads virtual needs a Java "
              + VIRTUAL_SINCE
              + "+ runtime, got Java "
              + Runtime.version()
              + " (run wg1bench with a Java "
              + VIRTUAL_SINCE
              + "+ java; platform threads run on this one)");
    }
  }
}
