package dev.wg1bench.history.format;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.UsageException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code history export}: the selected series in the format another tool reads. Otava's formats and
 * the plain CSV carry every run; Bencher's and github-action-benchmark's are one run's report (the
 * latest, or the one asked for), as those tools take one report per CI run.
 */
public final class HistoryExport {
  private HistoryExport() {}

  /** The formats, by the name {@code --format} takes. */
  public static final List<String> FORMATS =
      List.of("otava-csv", "otava-json", "bencher", "github-action-benchmark", "csv");

  /**
   * One output: its text, and for the formats that need several files the suffix that tells them
   * apart (null for the single output).
   *
   * @param suffix appended to the output file's stem ({@code -customBiggerIsBetter}), or null
   * @param text the file's content
   */
  public record Part(String suffix, String text) {}

  /**
   * What an export produced: its parts and a line for the user when runs were left out or which run
   * was exported (null when there is nothing to say).
   */
  public record Result(List<Part> parts, String note) {}

  /**
   * @param series the selected series, not empty
   * @param runs every run of the history (for the attributes the series' points do not carry)
   * @param runId {@code --run}: the run a one-run format reports, null for the latest
   */
  public static Result export(
      List<Series> series, List<StoredRun> runs, String format, String runId) {
    ExportTable table = new ExportTable(series, runs);
    if (runId != null && !format.equals("bencher") && !format.equals("github-action-benchmark")) {
      throw new UsageException(
          "--run "
              + runId
              + ": only the one-run formats (bencher, github-action-benchmark) take it");
    }
    return switch (format) {
      case "otava-csv" ->
          new Result(List.of(new Part(null, OtavaCsv.write(table))), leftOut(table));
      case "otava-json" ->
          new Result(List.of(new Part(null, OtavaJson.write(table))), leftOut(table));
      case "csv" -> new Result(List.of(new Part(null, PlainCsv.write(table))), null);
      case "bencher" -> {
        ExportTable.Row run = pick(table, runId);
        yield new Result(List.of(new Part(null, BencherFormat.write(table, run))), about(run));
      }
      case "github-action-benchmark" -> {
        ExportTable.Row run = pick(table, runId);
        List<Part> parts = new ArrayList<>();
        for (boolean higher : new boolean[] {true, false}) {
          String text = GithubActionBenchmark.write(table, run, higher);
          if (text != null) {
            parts.add(new Part("-" + GithubActionBenchmark.tool(higher), text));
          }
        }
        yield new Result(parts, about(run));
      }
      default ->
          throw new UsageException(
              "--format " + format + ": unknown; valid: " + String.join(", ", FORMATS));
    };
  }

  /**
   * The otava.yaml test that reads an otava-csv export written to {@code file}: its columns, and
   * each metric's direction, which the CSV itself cannot carry.
   */
  public static String otavaYaml(List<Series> series, List<StoredRun> runs, String file) {
    return OtavaCsv.otavaYaml(new ExportTable(series, runs), "wg1bench", file);
  }

  private static ExportTable.Row pick(ExportTable table, String runId) {
    if (runId == null) {
      return table.rows.get(table.rows.size() - 1);
    }
    return table.rows.stream()
        .filter(r -> runId.equals(r.runId()))
        .findFirst()
        .orElseThrow(
            () ->
                new UsageException(
                    "--run "
                        + runId
                        + ": no such run among the selected series' runs (the latest is "
                        + table.rows.get(table.rows.size() - 1).runId()
                        + ")"));
  }

  private static String about(ExportTable.Row run) {
    String commit = run.attributes().get("commit");
    return "run "
        + run.runId()
        + " of "
        + run.time()
        + (commit == null ? "" : ", commit " + commit)
        + " exported";
  }

  private static String leftOut(ExportTable table) {
    int all = table.rows.size();
    int kept = table.completeRows().size();
    if (kept == all) {
      return null;
    }
    if (kept == 0) {
      throw new UsageException(
          "no run has a value in every selected series, and Otava reads a number in every cell:"
              + " select series measured together with --series");
    }
    return (all - kept)
        + " of "
        + all
        + " runs left out: they lack a value in some selected series, and Otava reads a number in"
        + " every cell (select fewer series with --series to keep them)";
  }
}
