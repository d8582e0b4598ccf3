package dev.wg1bench.api;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import java.util.function.Supplier;

/** The engine's exceptions turned into the API's own, at the API's edge. */
final class Failures {
  private Failures() {}

  /**
   * Runs {@code body}; a usage error becomes an {@link InvalidSettingException}, a failure a {@link
   * RunFailedException}, both with the engine's one line.
   */
  static <T> T translated(Supplier<T> body) {
    try {
      return body.get();
    } catch (UsageException e) {
      throw new InvalidSettingException(e.getMessage(), e);
    } catch (RunFailure e) {
      throw new RunFailedException(e.getMessage(), e);
    }
  }

  /** A refusal worded as the command line words it. */
  static InvalidSettingException invalid(String message) {
    return new InvalidSettingException(message, null);
  }

  /** A workload made by a Supplier in this JVM asked to run in forks, which cannot call it. */
  static InvalidSettingException suppliedInForks(int forks, String workload) {
    return invalid(
        "forks "
            + forks
            + ": the workload "
            + workload
            + " is made by a Supplier in this JVM, which a forked JVM cannot call; use forks(0)"
            + " or a JdbcWorkload class");
  }
}
