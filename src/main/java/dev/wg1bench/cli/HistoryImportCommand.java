package dev.wg1bench.cli;

import dev.wg1bench.history.format.ImportSpec;
import dev.wg1bench.history.format.OtavaCsv;
import dev.wg1bench.history.format.OtavaJson;
import dev.wg1bench.history.store.AppendOnce;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.UsageException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code history import FILE --format ... --series NAME}: another tool's history into this one. The
 * whole file is read and checked first; a bad cell stops the import before any run is stored.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Import runs from an Apache Otava CSV or JSON file: one stored run per row",
      "or entry, with its time and attributes (commit, ...); each metric becomes "
          + "the series NAME/METRIC. The whole file is checked before anything is "
          + "stored: a bad row stops the import. A wg1bench result is stored as "
          + "'history add' stores it."
    })
final class HistoryImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  static final List<String> FORMATS = List.of("otava-csv", "otava-json", "wg1bench");

  @Parameters(paramLabel = "FILE", description = "The file to import.")
  Path file;

  @Option(
      names = "--format",
      required = true,
      paramLabel = "otava-csv|otava-json|wg1bench",
      description =
          "The file's format: Otava's CSV test file, Otava's JSON file, or a wg1bench result"
              + " (as 'history add' stores it).")
  String format;

  @Option(
      names = "--series",
      paramLabel = "NAME",
      description =
          "otava-csv, otava-json (required): each metric of the file becomes the series"
              + " NAME/METRIC. A wg1bench result names its own series, CONFIG/METRIC.")
  String series;

  @Mixin HistoryLocation history;

  @Option(
      names = "--time-column",
      paramLabel = "COLUMN",
      defaultValue = "time",
      description =
          "otava-csv: the column holding each run's time (Otava's time_column)."
              + " Default: ${DEFAULT-VALUE}.")
  String timeColumn;

  @Option(
      names = "--attributes",
      paramLabel = "COLUMN",
      split = ",",
      description =
          "otava-csv: the columns that are attributes, not metrics (Otava's attributes)."
              + " Default: those of commit, branch, version, run the file has.")
  List<String> attributes;

  @Option(
      names = "--lower-is-better",
      paramLabel = "METRIC",
      split = ",",
      description =
          "Metrics for which lower is better (Otava's direction: -1), e.g. latencies. Every other"
              + " metric is higher-is-better, as in Otava.")
  List<String> lowerIsBetter = new ArrayList<>();

  @Option(
      names = "--delimiter",
      paramLabel = "CHAR",
      defaultValue = ",",
      description =
          "otava-csv: the field separator (Otava's csv_options.delimiter; 'tab' for a"
              + " tab). Default: ${DEFAULT-VALUE}.")
  String delimiter;

  @Option(
      names = "--quote-char",
      paramLabel = "CHAR",
      defaultValue = "\"",
      description =
          "otava-csv: the quote character (Otava's csv_options.quote_char)."
              + " Default: ${DEFAULT-VALUE}.")
  String quote;

  @Override
  public Integer call() {
    history.check();
    if (!FORMATS.contains(format)) {
      throw new UsageException(
          "--format " + format + ": unknown; valid: " + String.join(", ", FORMATS));
    }
    if (format.equals("wg1bench")) {
      importResult();
      return 0;
    }
    checkSeriesName();
    ImportSpec spec =
        new ImportSpec(
            file,
            series,
            timeColumn,
            attributes,
            oneChar("--delimiter", delimiter),
            oneChar("--quote-char", quote),
            Set.copyOf(lowerIsBetter));
    List<StoredRun> runs = format.equals("otava-csv") ? OtavaCsv.read(spec) : OtavaJson.read(spec);
    Set<String> names = new TreeSet<>();
    runs.forEach(r -> r.metrics().stream().map(StoredMetric::seriesName).forEach(names::add));
    if (format.equals("otava-json")) {
      checkLowerIsBetter(names);
    }
    int[] again = {0};
    String where =
        history.use(
            (store, at) -> {
              AppendOnce once = new AppendOnce(store);
              for (StoredRun r : runs) {
                again[0] += once.append(r).alreadyStored() ? 1 : 0;
              }
              return at;
            });
    int fresh = runs.size() - again[0];
    out()
        .println(
            "imported "
                + fresh
                + (fresh == 1 ? " run" : " runs")
                + (again[0] == 0
                    ? ""
                    : " ("
                        + again[0]
                        + " of the file's "
                        + runs.size()
                        + " already stored: not again)")
                + " from "
                + file
                + " into "
                + where
                + ": "
                + names.size()
                + (names.size() == 1 ? " series, " : " series: ")
                + String.join(", ", names));
    return 0;
  }

  /** A wg1bench result: the store reads it as 'history add' does. */
  private void importResult() {
    if (series != null) {
      throw new UsageException(
          "--series "
              + series
              + ": a wg1bench result names its own series (CONFIG/METRIC); leave --series out");
    }
    HistoryOptions.store(history.value, new LinkedHashMap<>(), List.of(file), false, out());
  }

  /** An Otava file names only its metrics: the series is the name given here. */
  private void checkSeriesName() {
    if (series == null) {
      throw new UsageException("--format " + format + " needs --series NAME (the series' name)");
    }
    if (series.isBlank() || series.matches(".*[*?].*")) {
      throw new UsageException(
          "--series '" + series + "': a name, without * or ? (those select series elsewhere)");
    }
  }

  /**
   * Otava JSON has no column to look up first, so a --lower-is-better naming no metric would be
   * ignored without a word: said instead, after the file is read.
   */
  private void checkLowerIsBetter(Set<String> names) {
    for (String m : lowerIsBetter) {
      if (!names.contains(series + "/" + m)) {
        throw new UsageException("--lower-is-better " + m + ": no metric of that name in " + file);
      }
    }
  }

  private static char oneChar(String option, String v) {
    if (v.equals("tab") || v.equals("\\t")) {
      return '\t';
    }
    if (v.length() != 1) {
      throw new UsageException(option + " '" + v + "': one character (or 'tab')");
    }
    return v.charAt(0);
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
