package dev.wg1bench.plan;

/**
 * One script of a run and its weight in the mix (pgbench {@code -f FILE@WEIGHT}). The text travels
 * with the plan so a forked JVM runs exactly what the parent validated.
 *
 * @param name the file name, as error locations name the script ({@code FILE:LINE: ...})
 * @param label what the per-script figures call it, as pgbench's "SQL script N: ..." line does: the
 *     path as typed for {@code -f}, {@code <builtin: ...>} for pgbench's built-ins; the name when
 *     not given
 */
public record ScriptSource(String name, String text, int weight, String label) {
  public ScriptSource {
    if (weight < 0) {
      throw new UsageException("--script " + name + ": weight must be >= 0, got " + weight);
    }
    if (label == null) {
      label = name;
    }
  }

  public ScriptSource(String name, String text, int weight) {
    this(name, text, weight, null);
  }
}
