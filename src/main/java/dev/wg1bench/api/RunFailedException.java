package dev.wg1bench.api;

/**
 * A run that could not be done, where the command line exits 1: a server that cannot be reached,
 * tables that are missing, a workload whose {@code setUp} throws. The message is one line naming
 * what failed.
 */
public final class RunFailedException extends Wg1benchException {
  private static final long serialVersionUID = 1L;

  RunFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
