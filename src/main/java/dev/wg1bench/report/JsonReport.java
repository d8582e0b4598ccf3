package dev.wg1bench.report;

import dev.wg1bench.json.Json;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.result.BenchmarkRun;
import java.nio.file.Path;

/** The JSON result of a run, through the project's one mapper ({@link Json}). */
public final class JsonReport {
  private JsonReport() {}

  /** Null if a result can be written to {@code file}, else why not. */
  public static String unwritable(Path file) {
    return Json.unwritable(file);
  }

  /** The run written as {@link Json#write} does: the file it went to, said in the line. */
  public static OutputFile.Written write(BenchmarkRun run, Path file) {
    return Json.write(run, file);
  }

  /** Any result object (e.g. an experiment's report), written atomically with the same mapper. */
  public static OutputFile.Written writeValue(Object value, Path file) {
    return Json.write(value, file);
  }

  public static BenchmarkRun read(Path file) {
    return Json.read(file, BenchmarkRun.class);
  }
}
