package dev.wg1bench.experiment;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.Targets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What an experiment run was asked to do, validated: every constraint message is here.
 *
 * @param target one external server
 * @param rows rows of each table (per table for vacuum)
 * @param repeat timed trials of each measurement
 * @param jobs parallel VACUUM jobs to sweep (vacuum only)
 * @param tables number of tables to vacuum (vacuum only)
 * @param output JSON result file
 * @param plots directory for the PNG plots, null for none
 * @param force drop the experiment's own tables even if they hold rows
 * @param keep leave the experiment's tables in place at the end
 * @param settings session settings applied to every connection (recorded)
 */
public record ExperimentOptions(
    @JsonIgnore TargetSpec target,
    long rows,
    int repeat,
    List<Integer> jobs,
    int tables,
    Path output,
    Path plots,
    boolean force,
    boolean keep,
    Map<String, String> settings) {

  public static final long MIN_ROWS = 1000;
  public static final long MAX_ROWS = Integer.MAX_VALUE;
  public static final int MAX_JOBS = 64;

  public ExperimentOptions {
    Checks.range("--rows", rows, MIN_ROWS, MAX_ROWS);
    Checks.range("--repeat", repeat, 1, Matrix.MAX_REPEAT);
    jobs = List.copyOf(jobs);
    if (jobs.isEmpty()) {
      throw new UsageException("--jobs needs at least one value, e.g. 1,2,4");
    }
    for (int j : jobs) {
      Checks.range("--jobs", j, 1, MAX_JOBS);
    }
    if (jobs.stream().distinct().count() != jobs.size()) {
      throw new UsageException("--jobs lists a value twice: " + jobs);
    }
    Checks.range("--tables", tables, 1, 1000);
    settings = Map.copyOf(settings);
    for (String k : settings.keySet()) {
      if (!k.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        throw new UsageException(
            "--set '" + k + "' is not a setting name (letters, digits, _ and .)");
      }
    }
    if (target == null) {
      throw new UsageException("experiment needs --target URL of a PostgreSQL server");
    }
    if (Targets.of(target).fresh()) {
      throw new UsageException(
          "experiment --target embedded: give an external --target URL (the experiments measure a"
              + " real server's storage)");
    }
  }
}
