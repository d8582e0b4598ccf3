package dev.wg1bench.script;

/**
 * What the script's two exceptions, {@link ScriptException} (found before the run) and {@link
 * ScriptRuntimeException} (raised while it runs), tell their callers alike: the script, the line
 * and what is wrong there. One is checked and one is not, so they share this rather than a base
 * class.
 */
public interface ScriptError {
  /** Where the error is and what it says there. */
  Location location();

  /** Script name, or null when the error has no location (raised outside a script step). */
  default String source() {
    return location().source();
  }

  /** 1-based line of the command at fault, or 0 when unknown. */
  default int line() {
    return location().line();
  }

  /** The message without the location prefix. */
  default String detail() {
    return location().detail();
  }

  /**
   * A script error's place and text.
   *
   * @param source script name, or null when not yet located
   * @param line 1-based line, 0 when not yet located
   * @param detail what is wrong
   */
  record Location(String source, int line, String detail) {
    /** The exceptions' message: {@code "SOURCE:LINE: detail"}. */
    String message() {
      return source + ":" + line + ": " + detail;
    }
  }
}
