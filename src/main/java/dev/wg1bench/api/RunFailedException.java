package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A run that could not be done, where the command line exits 1: a server that cannot be reached,
 * tables that are missing, a workload whose {@code setUp} throws. The message is one line naming
 * what failed.
 */
@API(status = STABLE, since = "0.1")
public final class RunFailedException extends Wg1benchException {
  private static final long serialVersionUID = 1L;

  RunFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
