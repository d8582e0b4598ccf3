package dev.wg1bench.api;

import dev.wg1bench.json.Json;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.BenchmarkRun;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@link Wg1bench.Result} shows of a run, read from the engine's record: its own file so that
 * {@code Wg1bench} stays the description of a run. Package-private: users name {@code
 * Wg1bench.Result}, which inherits these accessors.
 */
abstract class ResultFigures {
  private final BenchmarkRun run;

  ResultFigures(BenchmarkRun run) {
    this.run = run;
  }

  /** The engine's record of the run, for this package's tests and views. */
  BenchmarkRun benchmarkRun() {
    return run;
  }

  /** Every trial, in the order they ran: one per target (and knob value, in a matrix). */
  public List<Trial> trials() {
    return Trial.all(run);
  }

  /** The run as the JSON the command line writes to {@code --output}. */
  public String json() {
    return Json.text(run);
  }

  /** Writes {@link #json()} to {@code file} (atomically, as the command line does). */
  public void writeJson(Path file) {
    JsonReport.write(run, file);
  }

  /** The one trial's {@link Trial#tps()}: successful ops per second. */
  public double tps() {
    return Trial.only(run, "tps").tps();
  }

  /** The one trial's {@link Trial#p50Ms()}: median latency in milliseconds. */
  public double p50Ms() {
    return Trial.only(run, "p50Ms").p50Ms();
  }

  /** The one trial's {@link Trial#p99Ms()}: 99th percentile latency in milliseconds. */
  public double p99Ms() {
    return Trial.only(run, "p99Ms").p99Ms();
  }

  /** The one trial's {@link Trial#failedOps()}: failed ops in the measurement windows. */
  public long failedOps() {
    return Trial.only(run, "failedOps").failedOps();
  }

  /** The one trial's {@link Trial#totalFailedOps()}: failed ops, warmup included. */
  public long totalFailedOps() {
    return Trial.only(run, "totalFailedOps").totalFailedOps();
  }

  /** The one trial's {@link Trial#retries()}: tries after the first (0 by default). */
  public long retries() {
    return Trial.only(run, "retries").retries();
  }

  /** The one trial's {@link Trial#committedOps()}: ops that committed, warmup included. */
  public long committedOps() {
    return Trial.only(run, "committedOps").committedOps();
  }
}
