package dev.wg1bench.script;

/**
 * A script error found before anything runs (syntax, unknown meta-command, undefined variable...).
 * The message is {@code "SOURCE:LINE: what is wrong"}.
 */
public final class ScriptException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final String detail;

  public ScriptException(String source, int line, String detail) {
    super(source + ":" + line + ": " + detail);
    this.source = source;
    this.line = line;
    this.detail = detail;
  }

  /** Name of the script the error is in. */
  public String source() {
    return source;
  }

  /** 1-based line of the command at fault. */
  public int line() {
    return line;
  }

  /** The message without the location prefix. */
  public String detail() {
    return detail;
  }
}
