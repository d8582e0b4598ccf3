package dev.wg1bench.plan;

/**
 * A failure of the environment, not of the user's input: a server unreachable, tables missing, a
 * load interrupted. The CLI prints the message as one line and exits 1.
 */
public final class RunFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RunFailure(String message) {
    super(message);
  }

  public RunFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
