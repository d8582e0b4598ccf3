package dev.wg1bench.jmh;

import dev.wg1bench.plan.ThreadKind;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JMH's executor for in-process (forks 0) runs on a Java 21+ runtime. JMH reads its executor type
 * ({@code jmh.executor}) once per JVM, so a JVM that ran one kind of threads could not run the
 * other; this executor is named by {@code jmh.executor=CUSTOM} and picks the kind per trial from
 * {@link #PROPERTY}, building the same fixed pool JMH's PLATFORM and VIRTUAL types build. Forked
 * runs use JMH's own VIRTUAL type instead.
 *
 * <p>Compiled for Java 17: the virtual-thread API is reached by reflection ({@link
 * ThreadKind#newThread}), only on a runtime that has it (the plan refuses --threads virtual on an
 * older one).
 */
public final class ClientExecutor extends ThreadPoolExecutor {
  /** System property holding the running trial's thread kind (platform or virtual). */
  public static final String PROPERTY = "wg1bench.threads";

  private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

  public ClientExecutor(int maxThreads, String prefix) {
    super(
        maxThreads,
        maxThreads,
        0L,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(),
        factory(ThreadKind.parse(System.getProperty(PROPERTY, "platform")), prefix));
  }

  /** Threads named as JMH names its workers, each made by {@link ThreadKind#newThread}. */
  static ThreadFactory factory(ThreadKind kind, String prefix) {
    String name = prefix + "-jmh-worker-";
    AtomicInteger n = new AtomicInteger();
    return r -> kind.newThread(r, name + n.incrementAndGet());
  }

  /** Whether a thread is virtual; always false on a runtime without virtual threads. */
  public static boolean isVirtual(Thread t) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(t);
    } catch (Throwable e) {
      return false;
    }
  }

  private static MethodHandle isVirtualHandle() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }
}
