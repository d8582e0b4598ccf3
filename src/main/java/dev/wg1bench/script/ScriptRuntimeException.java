package dev.wg1bench.script;

/**
 * A failure while evaluating a script at run time (division by zero, bigint out of range, bad
 * random bounds...). The message is {@code "SOURCE:LINE: what is wrong"} once located; errors
 * raised deep inside an expression are located by the enclosing step's expression root.
 */
public final class ScriptRuntimeException extends RuntimeException implements ScriptError {
  private static final long serialVersionUID = 1L;

  private final Location location;

  /** A located error, as thrown to callers of step expressions. */
  public ScriptRuntimeException(String source, int line, String detail) {
    this(source, line, detail, null);
  }

  ScriptRuntimeException(String source, int line, String detail, Throwable cause) {
    this(new Location(source, line, detail), cause);
  }

  private ScriptRuntimeException(Location location, Throwable cause) {
    super(location.message(), cause);
    this.location = location;
  }

  /**
   * An error not yet tied to a script line (e.g. raised by {@link PgbenchRandom} or {@link
   * Values}); no stack trace because it is normally rethrown located.
   */
  ScriptRuntimeException(String detail) {
    super(detail, null, false, false);
    this.location = new Location(null, 0, detail);
  }

  @Override
  public Location location() {
    return location;
  }

  boolean located() {
    return source() != null;
  }
}
