package dev.wg1bench.script;

/**
 * A failure while evaluating a script at run time (division by zero, bigint out of range, bad
 * random bounds...). The message is {@code "SOURCE:LINE: what is wrong"} once located; errors
 * raised deep inside an expression are located by the enclosing step's expression root.
 */
public final class ScriptRuntimeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final String detail;

  /** A located error, as thrown to callers of step expressions. */
  public ScriptRuntimeException(String source, int line, String detail) {
    this(source, line, detail, null);
  }

  ScriptRuntimeException(String source, int line, String detail, Throwable cause) {
    super(source + ":" + line + ": " + detail, cause);
    this.source = source;
    this.line = line;
    this.detail = detail;
  }

  /**
   * An error not yet tied to a script line (e.g. raised by {@link PgbenchRandom} or {@link
   * Values}); no stack trace because it is normally rethrown located.
   */
  ScriptRuntimeException(String detail) {
    super(detail, null, false, false);
    this.source = null;
    this.line = 0;
    this.detail = detail;
  }

  /** Script name, or null when the error has no location (raised outside a script step). */
  public String source() {
    return source;
  }

  /** 1-based line of the failing command, or 0 when unknown. */
  public int line() {
    return line;
  }

  /** The message without the location prefix. */
  public String detail() {
    return detail;
  }

  boolean located() {
    return source != null;
  }
}
