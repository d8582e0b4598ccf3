package dev.wg1bench.report;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.wg1bench.json.OutputFile;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * CSV for spreadsheets and R/pandas: one row per trial in FILE, one row per matrix point in
 * FILE-summary.csv. RFC 4180 through Jackson's CSV module (CRLF, fields quoted when they need it);
 * the point's knobs are columns of their own, the union over all trials in first-seen order. Writes
 * are atomic, as the JSON's. Per-script and per-command figures go to files of their own (see
 * {@link CommandsCsv}).
 */
public final class CsvReport {
  /** Columns after sequence, repeat and the point's knobs, as {@link TrialColumns} declares. */
  static final List<String> TRIAL_COLUMNS = Column.names(TrialColumns.ALL);

  /** Columns after the point's knobs, as {@link PointColumns} declares. */
  static final List<String> SUMMARY_COLUMNS = Column.names(PointColumns.ALL);

  private static final ObjectWriter WRITER =
      new CsvMapper().writer(CsvSchema.emptySchema().withLineSeparator("\r\n"));

  private CsvReport() {}

  /**
   * Writes the trials to {@code file}, the point summaries to {@link #summaryFile}, and per-script
   * and per-command figures when there are any (see {@link CommandsCsv}); returns the files
   * written. A special file ({@code /dev/stdout}, a FIFO, {@code /dev/null}) takes the trials table
   * alone, in place: it has no directory to put companions beside it ({@code --csv /dev/full} made
   * a {@code /dev/full-summary.csv} as root).
   */
  public static List<Path> write(BenchmarkRun run, Path file) {
    return write(List.of(run), file);
  }

  /**
   * Several result files in one CSV: a leading {@code run} column (1-based, in the order given)
   * tells them apart when there is more than one.
   */
  public static List<Path> write(List<BenchmarkRun> runs, Path file) {
    if (OutputFile.special(file)) {
      OutputFile.write(file, trials(runs).getBytes(StandardCharsets.UTF_8), "csv");
      return List.of(file);
    }
    atomicWrite(file, trials(runs));
    atomicWrite(summaryFile(file), summary(runs));
    List<Path> written = new ArrayList<>(List.of(file, summaryFile(file)));
    written.addAll(CommandsCsv.write(runs, file));
    return written;
  }

  /** {@code results.csv} → {@code results-summary.csv}. */
  public static Path summaryFile(Path file) {
    String name = file.getFileName().toString();
    String base =
        name.toLowerCase(Locale.ROOT).endsWith(".csv")
            ? name.substring(0, name.length() - 4)
            : name;
    return file.resolveSibling(base + "-summary.csv");
  }

  /** The per-trial CSV text. */
  public static String trials(List<BenchmarkRun> runs) {
    boolean multi = runs.size() > 1;
    Set<String> keys = pointKeys(runs);
    List<List<String>> rows = new ArrayList<>();
    rows.add(header(multi, keys, TRIAL_COLUMNS));
    for (int i = 0; i < runs.size(); i++) {
      for (TrialResult t : runs.get(i).trials()) {
        List<String> f = lead(multi, i, t, keys);
        Column.inCsv(TrialColumns.ALL).forEach(c -> f.add(c.csv(t)));
        rows.add(f);
      }
    }
    return csv(rows);
  }

  /** The per-point summary CSV text. */
  public static String summary(List<BenchmarkRun> runs) {
    boolean multi = runs.size() > 1;
    List<List<PointSummary>> all = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    for (BenchmarkRun r : runs) {
      List<PointSummary> s = summaries(r);
      all.add(s);
      s.forEach(p -> keys.addAll(point(p.point()).keySet()));
    }
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>();
    if (multi) {
      header.add("run");
    }
    header.addAll(keys);
    header.addAll(SUMMARY_COLUMNS);
    rows.add(header);
    for (int i = 0; i < all.size(); i++) {
      for (PointRow r : PointRow.of(all.get(i), runs.get(i).trials())) {
        List<String> f = new ArrayList<>();
        if (multi) {
          f.add(Integer.toString(i + 1));
        }
        Map<String, String> p = point(r.summary().point());
        for (String k : keys) {
          f.add(p.getOrDefault(k, ""));
        }
        Column.inCsv(PointColumns.ALL).forEach(c -> f.add(c.csv(r)));
        rows.add(f);
      }
    }
    return csv(rows);
  }

  /** The run's point summaries; recomputed from the trials for files that lack them. */
  static List<PointSummary> summaries(BenchmarkRun r) {
    return r.summary() != null ? r.summary() : Summaries.of(r.trials());
  }

  /** Rows as RFC 4180 text (CRLF; a field quoted when it needs to be), by Jackson's CSV module. */
  public static String csv(List<List<String>> rows) {
    StringWriter out = new StringWriter();
    try (SequenceWriter w = WRITER.writeValues(out)) {
      for (List<String> r : rows) {
        w.write(r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot format CSV: " + e.getMessage(), e);
    }
    return out.toString();
  }

  /** The knobs of every trial's point, first-seen order: the columns a row per trial carries. */
  static Set<String> pointKeys(List<BenchmarkRun> runs) {
    Set<String> keys = new LinkedHashSet<>();
    for (BenchmarkRun r : runs) {
      for (TrialResult t : r.trials()) {
        keys.addAll(point(t.point()).keySet());
      }
    }
    return keys;
  }

  /** The header of a table with rows per trial: [run,] sequence, repeat, the knobs, columns. */
  static List<String> header(boolean multi, Set<String> keys, List<String> columns) {
    List<String> header = new ArrayList<>();
    if (multi) {
      header.add("run");
    }
    header.add("sequence");
    header.add("repeat");
    header.addAll(keys);
    header.addAll(columns);
    return header;
  }

  /** The leading fields of a trial's row, matching {@link #header}; run is 0-based. */
  static List<String> lead(boolean multi, int run, TrialResult t, Set<String> keys) {
    List<String> f = new ArrayList<>();
    if (multi) {
      f.add(Integer.toString(run + 1));
    }
    f.add(Integer.toString(t.sequence()));
    f.add(Integer.toString(t.repeat()));
    Map<String, String> p = point(t.point());
    for (String k : keys) {
      f.add(p.getOrDefault(k, ""));
    }
    return f;
  }

  private static Map<String, String> point(Map<String, String> p) {
    return p == null ? Map.of() : p;
  }

  /** Plain decimal, no exponent; empty for null, NaN and infinities. */
  public static String num(Double d) {
    if (d == null || d.isNaN() || d.isInfinite()) {
      return "";
    }
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  /**
   * Writes next to the target and renames, so a reader never sees half a file; the temporary file
   * is created the ordinary way (umask applies), as the page and CSVs are meant to be shared.
   */
  public static void atomicWrite(Path file, String text) {
    if (OutputFile.special(file)) {
      // a device or FIFO is written in place, never renamed over
      OutputFile.write(file, text.getBytes(StandardCharsets.UTF_8), "output");
      return;
    }
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = dir.resolve(".wg1bench-" + file.getFileName() + "." + UUID.randomUUID() + ".tmp");
      try {
        Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
