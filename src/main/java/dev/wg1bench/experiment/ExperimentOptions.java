package dev.wg1bench.experiment;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
    if (rows < MIN_ROWS || rows > MAX_ROWS) {
      throw new UsageException(
          "--rows must be between " + MIN_ROWS + " and " + MAX_ROWS + ", got " + rows);
    }
    if (repeat < 1 || repeat > 100) {
      throw new UsageException("--repeat must be between 1 and 100, got " + repeat);
    }
    jobs = List.copyOf(jobs);
    if (jobs.isEmpty()) {
      throw new UsageException("--jobs needs at least one value, e.g. 1,2,4");
    }
    for (int j : jobs) {
      if (j < 1 || j > MAX_JOBS) {
        throw new UsageException(
            "--jobs values must be between 1 and " + MAX_JOBS + ", got " + j + " in " + jobs);
      }
    }
    if (jobs.stream().distinct().count() != jobs.size()) {
      throw new UsageException("--jobs lists a value twice: " + jobs);
    }
    if (tables < 1 || tables > 1000) {
      throw new UsageException("--tables must be between 1 and 1000, got " + tables);
    }
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
