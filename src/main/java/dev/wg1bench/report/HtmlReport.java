package dev.wg1bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.wg1bench.json.FiniteNumbers;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.PointsDiff;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code wg1bench report --html DIR}: one self-contained page (Html.CSS inline, plots as data URIs)
 * of one or more result files, with the PNGs and a CSV next to it for slides and spreadsheets.
 * Every text from a result (names, settings, error messages) is escaped.
 */
public final class HtmlReport {
  /** Result fields this version does not model (an {@code advice} array, say) are tolerated. */
  private static final ObjectReader LENIENT =
      Json.RESULTS
          .readerFor(BenchmarkRun.class)
          .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private HtmlReport() {}

  /**
   * One result file as read.
   *
   * @param name the file name shown in the report
   * @param advice the file's {@code advice} array, or an empty list
   */
  public record Source(String name, BenchmarkRun run, List<JsonNode> advice) {
    public Source {
      advice = advice == null ? List.of() : List.copyOf(advice);
    }
  }

  /** Thrown when a result file is missing or is not a wg1bench result; the message is one line. */
  public static final class BadInput extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInput(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public static Source read(Path file) {
    JsonNode tree;
    BenchmarkRun run;
    try {
      tree = Json.MAPPER.readTree(file.toFile());
      if (tree == null || !tree.isObject() || !tree.has("trials")) {
        throw new BadInput(file + ": not a wg1bench result (no trials)", null);
      }
      run = LENIENT.readValue(tree);
    } catch (NoSuchFileException | FileNotFoundException e) {
      throw new BadInput(file + ": no such file", e);
    } catch (FiniteNumbers.NotAFigure e) {
      // a result whose figure is no number: named, never read as NaN, infinity or 0
      throw new BadInput(file + ": " + Html.oneLine(e.getOriginalMessage()), e);
    } catch (JsonProcessingException e) {
      throw new BadInput(
          file + ": not a wg1bench result: " + Html.oneLine(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new BadInput(file + ": cannot read: " + Html.oneLine(e.getMessage()), e);
    } catch (RuntimeException e) {
      if (e instanceof BadInput b) {
        throw b;
      }
      // the plan validates itself when read back
      throw new BadInput(file + ": not a wg1bench result: " + Html.oneLine(e.getMessage()), e);
    }
    if (run.trials() == null) {
      throw new BadInput(file + ": not a wg1bench result (no trials)", null);
    }
    List<JsonNode> advice = new ArrayList<>();
    JsonNode a = tree.get("advice");
    if (a != null && a.isArray()) {
      a.forEach(advice::add);
    }
    return new Source(file.getFileName().toString(), run, advice);
  }

  /** {@link #write(List, Path, String, PointsDiff)} with the first column as the baseline. */
  public static Path write(List<Source> sources, Path dir) {
    return write(sources, dir, null, null);
  }

  /**
   * Writes DIR/index.html, DIR/*.png, DIR/results.csv (+ results-summary.csv) and
   * DIR/results-clients.csv.
   *
   * @param baseline {@code report --baseline}: the clients table's baseline column, null for its
   *     first
   * @param diff the second of two results read against the first (a section and its ratio figure),
   *     or null for none
   * @throws BadBaseline when the baseline matches no column, before anything is written
   */
  public static Path write(List<Source> sources, Path dir, String baseline, PointsDiff diff) {
    List<BenchmarkRun> runs = sources.stream().map(Source::run).toList();
    List<TrialResult> trials = new ArrayList<>();
    runs.forEach(r -> trials.addAll(r.trials()));
    // one file: its own summary; several: repeats of the same point are pooled across files
    List<PointSummary> summaries =
        runs.size() == 1 ? CsvReport.summaries(runs.get(0)) : Summaries.of(trials);
    List<ClientsTable.Table> tables;
    try {
      tables = ClientsTable.of(summaries, trials, baseline);
    } catch (ClientsTable.BadBaseline e) {
      throw new BadBaseline(e.getMessage());
    }
    List<Plots.Figure> figures = Plots.all(summaries, trials, timing(sources));
    // two results: the diff's ratios drawn beside its table
    Plots.Figure ratio =
        diff == null || diff.refused() != null
            ? null
            : RatioPlots.figure(diff, sources.get(0).name(), sources.get(1).name());
    try {
      Files.createDirectories(dir);
      if (ratio != null) {
        Files.write(dir.resolve(ratio.name() + ".png"), ratio.png());
      }
      for (Plots.Figure f : figures) {
        Files.write(dir.resolve(f.name() + ".png"), f.png());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
    }
    CsvReport.write(runs, dir.resolve("results.csv"));
    CsvReport.atomicWrite(dir.resolve("results-clients.csv"), ClientsTable.csv(tables));
    Path index = dir.resolve("index.html");
    CsvReport.atomicWrite(
        index, html(sources, summaries, trials, figures, diff, ratio, tables, baseline));
    return index;
  }

  /** {@code report --baseline} matches no column of the clients table; the message is one line. */
  public static final class BadBaseline extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadBaseline(String message) {
      super(message);
    }
  }

  /**
   * The page's body as sections, each with its entry in the navigation bar: a new section is one
   * {@code add} call.
   */
  private static final class Page {
    final StringBuilder nav = new StringBuilder("<nav>");
    final StringBuilder body = new StringBuilder();

    void add(String id, String title, Consumer<StringBuilder> content) {
      Html.link(nav, id, title);
      body.append("<h2 id=\"").append(id).append("\">").append(esc(title)).append("</h2>\n");
      content.accept(body);
    }

    /** A section whose content writes its own {@code <h2 id="ID">} heading. */
    void addHeaded(String id, String title, Consumer<StringBuilder> content) {
      Html.link(nav, id, title);
      content.accept(body);
    }
  }

  static String html(
      List<Source> sources,
      List<PointSummary> summaries,
      List<TrialResult> trials,
      List<Plots.Figure> figures,
      PointsDiff diff,
      Plots.Figure ratio,
      List<ClientsTable.Table> tables,
      String baseline) {
    Set<String> workloads = new LinkedHashSet<>();
    sources.forEach(s -> workloads.add(Html.nz(s.run().workload())));
    String title = "wg1bench report: " + String.join(", ", workloads);
    List<String> keys = tableKeys(summaries);
    Page page = new Page();
    // the answer first: a single point's figures and verdict, or the comparison between points;
    // then the plots read at a glance; the detail tables; provenance (runs, targets) last
    boolean onePoint = summaries.size() == 1;
    if (diff != null) {
      // two results: the second read against the first, as the diff command prints it
      page.addHeaded("diff", "New against base", h -> diff(h, sources, diff, ratio));
    }
    if (onePoint) {
      page.add("result", "Result", h -> HeadlineHtml.section(h, trials));
    } else {
      page.add("clients", "Throughput by clients", h -> ClientsTable.html(h, tables, baseline));
      page.add("summary", "Summary per point", h -> TablesHtml.summary(h, summaries, trials, keys));
    }
    if (OpTimeHtml.any(sources)) {
      page.add("optime", "Where an op's time goes", h -> OpTimeHtml.section(h, sources));
    }
    page.add("plots", "Plots", h -> figures(h, figures));
    page.add("trials", "Trials", h -> TablesHtml.trials(h, sources, keys));
    if (trials.stream().anyMatch(t -> t.errors() != null && !t.errors().isEmpty())) {
      page.add("errors", "Errors", h -> TablesHtml.errors(h, trials, keys));
    }
    if (trials.stream()
        .anyMatch(t -> t.measurement() != null && t.measurement().scripts() != null)) {
      page.addHeaded(
          "commands", "Scripts and commands", h -> CommandsHtml.section(h, trials, keys));
    }
    if (sources.stream().anyMatch(s -> !s.advice().isEmpty())) {
      page.addHeaded("advice", "Advice", h -> AdviceHtml.section(h, sources));
    }
    page.add("runorder", "Run order", h -> TablesHtml.runOrder(h, sources, keys));
    page.add("targets", "Targets", h -> TargetsHtml.section(h, trials));
    page.add("runs", "Runs", h -> sources.forEach(s -> runSection(h, s)));
    return document(title, page, sources);
  }

  /** The page around its sections: head, title, navigation bar, footer naming the sources. */
  private static String document(String title, Page page, List<Source> sources) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append(Html.CSS)
        .append(OpTimeHtml.CSS)
        .append("</style>\n</head>\n<body>\n<h1>")
        .append(esc(title))
        .append("</h1>\n")
        .append(page.nav)
        .append("</nav>\n")
        .append(page.body);
    h.append("<footer>Written by wg1bench ")
        .append(esc(Html.nz(sources.get(0).run().version())))
        .append(" from ")
        .append(esc(String.join(", ", sources.stream().map(Source::name).toList())))
        .append(".</footer>\n</body>\n</html>\n");
    return h.toString();
  }

  /** The second result read against the first, and the figure of their ratios when there is one. */
  private static void diff(
      StringBuilder h, List<Source> sources, PointsDiff diff, Plots.Figure ratio) {
    DiffTable.html(h, sources.get(0), sources.get(1), diff);
    if (ratio != null) {
      h.append("<div class=\"figs\">\n");
      figure(h, ratio);
      h.append("</div>\n");
    }
  }

  /**
   * The figures in order; the per-point ones of a workload folded into one closed section after its
   * overview, so a sweep of many points keeps the page readable.
   */
  private static void figures(StringBuilder h, List<Plots.Figure> figures) {
    // side by side where the window allows: a throughput and a latency figure read together
    h.append("<div class=\"figs\">\n");
    String open = null;
    for (int i = 0; i < figures.size(); i++) {
      Plots.Figure f = figures.get(i);
      if (f.fold() != null && !f.fold().equals(open)) {
        if (open != null) {
          h.append("</details>\n");
        }
        open = f.fold();
        int n = 0;
        for (int j = i; j < figures.size() && open.equals(figures.get(j).fold()); j++) {
          n++;
        }
        h.append("<details><summary>")
            .append(esc(open))
            .append(": progress of each point, its repeats and warmup (")
            .append(n)
            .append(n == 1 ? " figure" : " figures")
            .append(")</summary>\n");
      } else if (f.fold() == null && open != null) {
        h.append("</details>\n");
        open = null;
      }
      figure(h, f);
    }
    if (open != null) {
      h.append("</details>\n");
    }
    h.append("</div>\n");
  }

  private static void figure(StringBuilder h, Plots.Figure f) {
    h.append("<figure>\n<img src=\"data:image/png;base64,")
        .append(Base64.getEncoder().encodeToString(f.png()))
        .append("\" width=\"")
        .append(f.width())
        .append("\" height=\"")
        .append(f.height())
        .append("\" alt=\"")
        .append(esc(f.title()))
        .append("\">\n<figcaption>")
        .append(esc(f.caption()))
        .append(" (<code>")
        .append(esc(f.name()))
        .append(".png</code>)</figcaption>\n</figure>\n");
  }

  /** "3 s per trial" (the measured time, warmup apart), each distinct value of the sources once. */
  static String timing(List<Source> sources) {
    Set<String> t = new LinkedHashSet<>();
    for (Source s : sources) {
      RunPlan p = s.run().plan();
      if (p != null && p.timing() != null && p.timing().duration() != null) {
        t.add(dur(p.timing().duration()));
      }
    }
    return t.isEmpty() ? null : String.join(" / ", t) + " per trial";
  }

  private static void runSection(StringBuilder h, Source s) {
    BenchmarkRun r = s.run();
    h.append("<h3>").append(esc(s.name())).append("</h3>\n<table class=\"kv\">\n");
    Html.kv(
        h, "tool", Html.nz(r.tool()) + " " + Html.nz(r.version()) + ", JMH " + Html.nz(r.jmh()));
    Html.kv(
        h,
        "workload",
        Html.nz(r.workload())
            + (r.workloadDescription() == null ? "" : ": " + r.workloadDescription()));
    Html.kv(h, "seed section", r.seed());
    List<TrialResult> ts = r.trials();
    if (!ts.isEmpty()) {
      Html.kv(
          h,
          "date",
          ReportOrder.date(first(ts).startedAt())
              + " \u2013 "
              + ReportOrder.date(last(ts).finishedAt()));
    }
    machine(h, r.machine());
    RunPlan p = r.plan();
    if (p != null && p.timing() != null) {
      Html.kv(h, "timing", timingText(p.timing()));
      if (p.session() != null) {
        Html.kv(h, "max tries", Integer.toString(p.session().maxTries()));
      }
    }
    Html.kv(h, "trials", TablesHtml.orderText(r.matrix(), ts.size()));
    h.append("</table>\n");
  }

  /** The machine the run was measured on: host, cores, memory, CPU; OS; JVM. */
  private static void machine(StringBuilder h, Machine m) {
    if (m == null) {
      return;
    }
    Html.kv(
        h,
        "machine",
        Html.nz(m.hostname())
            + ": "
            + m.cores()
            + " cores, "
            + (m.memoryBytes() > 0
                ? String.format(Locale.ROOT, "%.1f GiB", m.memoryBytes() / (1024.0 * 1024 * 1024))
                : "memory unknown")
            + ", "
            + Html.nz(m.cpuModel()));
    Html.kv(
        h,
        "OS",
        Html.nz(m.os())
            + " "
            + Html.nz(m.kernel())
            + " ("
            + Html.nz(m.arch())
            + ")"
            + (m.scheduler() != null ? ", scheduler: " + m.scheduler() : ""));
    Html.kv(h, "JVM", Html.nz(m.jvm()) + " " + Html.nz(m.jvmVersion()));
  }

  /** "warmup 3 s, measured 10 s in 5 iterations, 1 fork(s), ..." (-t: ops per client). */
  private static String timingText(Timing t) {
    StringBuilder timing = new StringBuilder();
    if (t.countsOps()) {
      // -t: no duration, warmup or iterations of its own apply
      timing.append(t.transactions()).append(" ops per client (-t), ").append(t.forks());
      timing.append(" fork(s)");
    } else {
      timing
          .append("warmup ")
          .append(dur(t.warmup()))
          .append(", measured ")
          .append(dur(t.duration()))
          .append(" in ")
          .append(t.iterations())
          .append(" iterations, ")
          .append(t.forks())
          .append(" fork(s)");
    }
    if (t.progress() != null) {
      timing.append(", progress every ").append(dur(t.progress()));
    }
    if (t.rate() != null) {
      timing.append(", rate ").append(t.rate()).append(" ops/s");
    }
    if (t.latencyLimit() != null) {
      timing.append(", latency limit ").append(dur(t.latencyLimit()));
    }
    return timing.toString();
  }

  /** The earliest start: ISO instants of one clock compare as text. */
  private static TrialResult first(List<TrialResult> ts) {
    return ts.stream().min(Comparator.comparing(t -> Html.nz(t.startedAt()))).orElseThrow();
  }

  private static TrialResult last(List<TrialResult> ts) {
    return ts.stream().max(Comparator.comparing(t -> Html.nz(t.finishedAt()))).orElseThrow();
  }

  /** Point keys worth a column: those that vary, and clients and workload when they do. */
  static List<String> tableKeys(List<PointSummary> summaries) {
    List<String> keys = new ArrayList<>();
    for (String k : ReportOrder.keys(summaries.stream().map(PointSummary::point).toList())) {
      Set<String> values = new LinkedHashSet<>();
      summaries.forEach(s -> values.add(String.valueOf(s.point().get(k))));
      if (values.size() > 1 || k.equals("clients") || k.equals("target")) {
        keys.add(k);
      }
    }
    return keys;
  }

  static String text(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return "";
    }
    if (v.isValueNode()) {
      return v.asText();
    }
    if (v.isObject()) {
      List<String> parts = new ArrayList<>();
      Iterator<Map.Entry<String, JsonNode>> it = v.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        parts.add(e.getKey() + "=" + text(e.getValue()));
      }
      return String.join(", ", parts);
    }
    List<String> parts = new ArrayList<>();
    v.forEach(x -> parts.add(text(x)));
    return String.join(", ", parts);
  }

  /** tps as the tables show it: one decimal. */
  public static String tps(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
  }

  /** Latency as the tables show it: microsecond resolution, as the histograms record it. */
  public static String ms(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  /** HTML text and attribute escaping. */
  public static String esc(String s) {
    return Html.esc(s);
  }

  /** The report's style sheet, for the other pages that follow its conventions (the history's). */
  public static String css() {
    return Html.CSS;
  }

  private static String dur(Duration d) {
    return d == null ? "" : Durations.format(d);
  }
}
