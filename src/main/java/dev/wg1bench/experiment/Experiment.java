package dev.wg1bench.experiment;

import java.io.PrintStream;
import java.sql.SQLException;

/**
 * One of the seed's experiments: its measurements, run inside {@link ExperimentSupport#run}, which
 * connects, claims the experiment's table prefix, writes the JSON and cleans up around them.
 */
public abstract class Experiment {
  final PrintStream out;
  private final String name;
  private final String prefix;

  Experiment(String name, String prefix, PrintStream out) {
    this.name = name;
    this.prefix = prefix;
    this.out = out;
  }

  public final ExperimentReport run(ExperimentOptions o) {
    return ExperimentSupport.run(name, prefix, o, out, ctx -> measure(ctx, o));
  }

  /** The measurements on the claimed connection, and the report of them. */
  abstract ExperimentReport measure(ExperimentSupport.Context ctx, ExperimentOptions o)
      throws SQLException;
}
