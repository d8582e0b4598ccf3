package dev.wg1bench.plan;

/**
 * One script of a run and its weight in the mix (pgbench {@code -f FILE@WEIGHT}). The text travels
 * with the plan so a forked JVM runs exactly what the parent validated.
 */
public record ScriptSource(String name, String text, int weight) {
  public ScriptSource {
    if (weight < 0) {
      throw new UsageException("--script " + name + ": weight must be >= 0, got " + weight);
    }
  }
}
