package dev.wg1bench.plan;

/**
 * A user's mistake: a bad option value, script or target. The CLI prints the message as one line
 * and exits 2; it never carries a stack trace to the console.
 */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }

  public UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
