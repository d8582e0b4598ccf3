package dev.wg1bench.api;

import dev.wg1bench.result.BenchmarkRun;

/**
 * The engine's record behind an API result, for the engine's own tests that read fields the API
 * does not show (a trial's measurement, its errors): the API itself no longer hands it out.
 */
public final class EngineRecords {
  private EngineRecords() {}

  /** The run {@code r} was made from. */
  public static BenchmarkRun of(Wg1bench.Result r) {
    return r.benchmarkRun();
  }

  /** The run holding every trial and the verdict of {@code c}. */
  public static BenchmarkRun of(Comparison c) {
    return c.benchmarkRun();
  }

  /** An API result made from an engine record, as {@link Wg1bench#run()} makes one. */
  public static Wg1bench.Result result(BenchmarkRun run) {
    return new Wg1bench.Result(run);
  }
}
