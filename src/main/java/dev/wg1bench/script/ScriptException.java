package dev.wg1bench.script;

/**
 * A script error found before anything runs (syntax, unknown meta-command, undefined variable...).
 * The message is {@code "SOURCE:LINE: what is wrong"}.
 */
public final class ScriptException extends Exception implements ScriptError {
  private static final long serialVersionUID = 1L;

  private final Location location;

  public ScriptException(String source, int line, String detail) {
    this(new Location(source, line, detail));
  }

  private ScriptException(Location location) {
    super(location.message());
    this.location = location;
  }

  @Override
  public Location location() {
    return location;
  }
}
