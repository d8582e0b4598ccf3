package dev.wg1bench.workload;

/** Thrown out of an op under --exit-on-error, to stop the run at the first failure. */
public final class OpFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OpFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
