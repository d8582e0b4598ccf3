package dev.wg1bench.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Prints every thread's stack when a test or lifecycle method ran past its timeout (see
 * junit-platform.properties), so a hang in CI says where it hung. Registered for all tests by
 * autodetection.
 */
public final class ThreadDumpOnTimeout
    implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable t) throws Throwable {
    dumpIfTimeout(context, t);
    throw t;
  }

  @Override
  public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable t)
      throws Throwable {
    dumpIfTimeout(context, t);
    throw t;
  }

  @Override
  public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable t)
      throws Throwable {
    dumpIfTimeout(context, t);
    throw t;
  }

  @Override
  public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable t)
      throws Throwable {
    dumpIfTimeout(context, t);
    throw t;
  }

  @Override
  public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable t)
      throws Throwable {
    dumpIfTimeout(context, t);
    throw t;
  }

  private static void dumpIfTimeout(ExtensionContext context, Throwable t) {
    if (!(t instanceof TimeoutException)) {
      return;
    }
    StringBuilder b =
        new StringBuilder("=== thread dump: " + context.getDisplayName() + " timed out ===\n");
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      b.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
      if (info.getLockName() != null) {
        b.append(" on ").append(info.getLockName());
      }
      b.append('\n');
      for (StackTraceElement e : info.getStackTrace()) {
        b.append("    at ").append(e).append('\n');
      }
    }
    System.err.print(b);
  }
}
