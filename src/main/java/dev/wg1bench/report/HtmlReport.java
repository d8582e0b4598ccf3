package dev.wg1bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.ClientInfo;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ServerInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code wg1bench report --html DIR}: one self-contained page (Html.CSS inline, plots as data URIs)
 * of one or more result files, with the PNGs and a CSV next to it for slides and spreadsheets.
 * Every text from a result (names, settings, error messages) is escaped.
 */
public final class HtmlReport {
  /** Result fields this version does not model (an {@code advice} array, say) are tolerated. */
  private static final ObjectReader LENIENT =
      Json.MAPPER
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
    } catch (NoSuchFileException | java.io.FileNotFoundException e) {
      throw new BadInput(file + ": no such file", e);
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

  /** Writes DIR/index.html, DIR/*.png and DIR/results.csv (+ results-summary.csv). */
  public static Path write(List<Source> sources, Path dir) {
    List<BenchmarkRun> runs = sources.stream().map(Source::run).toList();
    List<TrialResult> trials = new ArrayList<>();
    runs.forEach(r -> trials.addAll(r.trials()));
    // one file: its own summary; several: repeats of the same point are pooled across files
    List<PointSummary> summaries =
        runs.size() == 1 ? CsvReport.summaries(runs.get(0)) : Summaries.of(trials);
    List<Plots.Figure> figures = Plots.all(summaries, trials);
    try {
      Files.createDirectories(dir);
      for (Plots.Figure f : figures) {
        Files.write(dir.resolve(f.name() + ".png"), f.png());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
    }
    CsvReport.write(runs, dir.resolve("results.csv"));
    Path index = dir.resolve("index.html");
    CsvReport.atomicWrite(index, html(sources, summaries, trials, figures));
    return index;
  }

  static String html(
      List<Source> sources,
      List<PointSummary> summaries,
      List<TrialResult> trials,
      List<Plots.Figure> figures) {
    StringBuilder h = new StringBuilder();
    Set<String> workloads = new LinkedHashSet<>();
    sources.forEach(s -> workloads.add(Html.nz(s.run().workload())));
    String title = "wg1bench report: " + String.join(", ", workloads);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append(Html.CSS)
        .append("</style>\n</head>\n<body>\n<h1>")
        .append(esc(title))
        .append("</h1>\n");
    h.append("<nav>");
    Html.link(h, "runs", "Runs");
    Html.link(h, "targets", "Targets");
    Html.link(h, "plots", "Plots");
    Html.link(h, "summary", "Summary");
    Html.link(h, "trials", "Trials");
    boolean errors = trials.stream().anyMatch(t -> t.errors() != null && !t.errors().isEmpty());
    if (errors) {
      Html.link(h, "errors", "Errors");
    }
    boolean advice = sources.stream().anyMatch(s -> !s.advice().isEmpty());
    if (advice) {
      Html.link(h, "advice", "Advice");
    }
    if (sources.size() == 2) {
      Html.link(h, "diff", "New against base");
    }
    h.append("</nav>\n");

    h.append("<h2 id=\"runs\">Runs</h2>\n");
    for (Source s : sources) {
      runSection(h, s);
    }
    h.append("<h2 id=\"targets\">Targets</h2>\n");
    targets(h, trials);

    List<String> keys = tableKeys(summaries);
    h.append("<h2 id=\"plots\">Plots</h2>\n");
    for (Plots.Figure f : figures) {
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

    h.append("<h2 id=\"summary\">Summary per point</h2>\n");
    h.append(
        "<p>Median over the repeats of each point; failed ops and retries summed over them.</p>\n");
    h.append("<table>\n<thead><tr>");
    keys.forEach(k -> Html.th(h, k));
    for (String c :
        List.of(
            "trials",
            "median tps",
            "min tps",
            "max tps",
            "median p50 (ms)",
            "median p99 (ms)",
            "failed ops",
            "retries")) {
      Html.th(h, c);
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (PointSummary s : summaries) {
      h.append("<tr>");
      keys.forEach(k -> Html.td(h, s.point().get(k)));
      Html.num(h, Integer.toString(s.trials()));
      Html.num(h, tps(s.medianTps()));
      Html.num(h, tps(s.minTps()));
      Html.num(h, tps(s.maxTps()));
      Html.num(h, ms(s.medianP50Ms()));
      Html.num(h, ms(s.medianP99Ms()));
      Html.num(h, Long.toString(s.failedOps()));
      Html.num(h, Long.toString(s.retries()));
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n");

    h.append("<h2 id=\"trials\">Trials in run order</h2>\n");
    h.append(
        "<p>tps &plusmn; the half-width of its 95% confidence interval by batch means over the"
            + " per-second samples (none when the run was too short for one).</p>\n");
    for (Source s : sources) {
      if (sources.size() > 1) {
        h.append("<h3>").append(esc(s.name())).append("</h3>\n");
      }
      h.append("<table>\n<thead><tr>");
      Html.th(h, "#");
      keys.forEach(k -> Html.th(h, k));
      for (String c :
          List.of("repeat", "tps", "p50 (ms)", "p99 (ms)", "failed ops", "retries", "started")) {
        Html.th(h, c);
      }
      h.append("</tr></thead>\n<tbody>\n");
      for (TrialResult t : s.run().trials()) {
        Measurement m = t.measurement();
        h.append("<tr>");
        Html.num(h, Integer.toString(t.sequence()));
        keys.forEach(k -> Html.td(h, t.point() == null ? null : t.point().get(k)));
        Html.num(h, Integer.toString(t.repeat()));
        Html.num(h, tps(m.tps()) + (m.tpsError() == null ? "" : " \u00b1 " + tps(m.tpsError())));
        Html.num(h, m.latencyMs() == null ? "" : ms(m.latencyMs().p50()));
        Html.num(h, m.latencyMs() == null ? "" : ms(m.latencyMs().p99()));
        Html.num(h, Long.toString(m.totalFailedOps()));
        Html.num(h, Long.toString(m.retries()));
        Html.td(h, t.startedAt());
        h.append("</tr>\n");
      }
      h.append("</tbody>\n</table>\n");
    }

    if (errors) {
      h.append("<h2 id=\"errors\">Errors</h2>\n<table>\n<thead><tr>");
      for (String c :
          List.of(
              "#",
              "point",
              "phase",
              "kind",
              "SQLSTATE",
              "count",
              "retried",
              "first at",
              "first message")) {
        Html.th(h, c);
      }
      h.append("</tr></thead>\n<tbody>\n");
      for (TrialResult t : trials) {
        if (t.errors() == null) {
          continue;
        }
        for (ErrorRecord e : t.errors()) {
          h.append("<tr>");
          Html.num(h, Integer.toString(t.sequence()));
          Html.td(h, Plots.label(t.point(), keys) + " #" + t.repeat());
          Html.td(h, e.phase());
          Html.td(h, e.kind());
          Html.td(h, e.sqlState());
          Html.num(h, Long.toString(e.count()));
          Html.num(h, Long.toString(e.retried()));
          Html.td(h, e.firstAt());
          h.append("<td class=\"msg\">").append(esc(e.firstMessage())).append("</td>");
          h.append("</tr>\n");
        }
      }
      h.append("</tbody>\n</table>\n");
    }

    if (sources.size() == 2) {
      // two results: the second read against the first, as the diff command prints it
      Diff.html(h, sources.get(0), sources.get(1));
    }
    if (advice) {
      AdviceHtml.section(h, sources);
    }
    h.append("<footer>Written by wg1bench ")
        .append(esc(Html.nz(sources.get(0).run().version())))
        .append(" from ")
        .append(esc(String.join(", ", sources.stream().map(Source::name).toList())))
        .append(".</footer>\n</body>\n</html>\n");
    return h.toString();
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
          Html.nz(ts.get(0).startedAt())
              + " \u2013 "
              + Html.nz(ts.get(ts.size() - 1).finishedAt()));
      Html.kv(h, "dataset", distinct(ts, TrialResult::dataset));
    }
    Machine m = r.machine();
    if (m != null) {
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
          h, "OS", Html.nz(m.os()) + " " + Html.nz(m.kernel()) + " (" + Html.nz(m.arch()) + ")");
      Html.kv(h, "JVM", Html.nz(m.jvm()) + " " + Html.nz(m.jvmVersion()));
    }
    RunPlan p = r.plan();
    if (p != null && p.timing() != null) {
      var t = p.timing();
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
      Html.kv(h, "timing", timing.toString());
      if (p.session() != null) {
        Html.kv(h, "max tries", Integer.toString(p.session().maxTries()));
      }
    }
    Html.kv(h, "trials", Integer.toString(ts.size()));
    h.append("</table>\n");
  }

  /** Per target: the server and its settings, and how the client talked to it. */
  private static void targets(StringBuilder h, List<TrialResult> trials) {
    Map<String, List<TrialResult>> byTarget = new LinkedHashMap<>();
    trials.forEach(
        t -> byTarget.computeIfAbsent(Html.nz(t.target()), k -> new ArrayList<>()).add(t));
    for (Map.Entry<String, List<TrialResult>> e : byTarget.entrySet()) {
      List<TrialResult> ts = e.getValue();
      TrialResult first = ts.get(0);
      h.append("<h3>").append(esc(e.getKey())).append("</h3>\n<table class=\"kv\">\n");
      Html.kv(h, "kind", first.targetKind());
      Html.kv(h, "URL", first.url());
      ServerInfo s = first.server();
      if (s != null) {
        Html.kv(
            h,
            "server",
            Html.nz(s.version())
                + (s.versionString() == null ? "" : " (" + s.versionString() + ")"));
        if (s.settings() != null && !s.settings().isEmpty()) {
          StringBuilder set = new StringBuilder();
          for (String k : ServerInfo.RELEVANT) {
            if (s.settings().containsKey(k)) {
              set.append(set.length() == 0 ? "" : ", ")
                  .append(k)
                  .append('=')
                  .append(s.settings().get(k));
            }
          }
          Html.kv(h, "server settings", set.toString());
        }
      }
      Html.kv(h, "pgjdbc", distinct(ts, t -> t.client() == null ? null : t.client().pgjdbc()));
      Html.kv(
          h, "query mode", distinct(ts, t -> t.client() == null ? null : t.client().queryMode()));
      Html.kv(
          h, "isolation", distinct(ts, t -> t.client() == null ? null : t.client().isolation()));
      Html.kv(h, "sslmode", distinct(ts, t -> t.client() == null ? null : t.client().sslmode()));
      Html.kv(h, "ssl", distinct(ts, t -> t.client() == null ? null : t.client().ssl()));
      Html.kv(
          h,
          "clients",
          distinct(ts, t -> t.client() == null ? null : Integer.toString(t.client().clients())));
      Html.kv(
          h,
          "pool",
          distinct(
              ts,
              t -> {
                ClientInfo c = t.client();
                return c == null || c.pool() == null
                    ? "none (one connection per client)"
                    : c.pool().implementation() + ", " + c.pool().size() + " connections";
              }));
      Html.kv(
          h,
          "session settings",
          distinct(
              ts,
              t ->
                  t.client() == null
                          || t.client().sessionSettings() == null
                          || t.client().sessionSettings().isEmpty()
                      ? null
                      : t.client().sessionSettings().toString()));
      Html.kv(
          h,
          "driver",
          distinct(
              ts,
              t -> {
                ClientInfo c = t.client();
                return c == null
                    ? null
                    : "prepareThreshold="
                        + c.prepareThreshold()
                        + ", binaryTransfer="
                        + c.binaryTransfer()
                        + ", fetchSize="
                        + c.fetchSize()
                        + ", reWriteBatchedInserts="
                        + c.rewriteBatchedInserts()
                        + (c.jdbcProperties() == null || c.jdbcProperties().isEmpty()
                            ? ""
                            : ", " + c.jdbcProperties());
              }));
      h.append("</table>\n");
    }
  }

  /** Point keys worth a column: those that vary, and clients and workload when they do. */
  static List<String> tableKeys(List<PointSummary> summaries) {
    List<String> keys = new ArrayList<>();
    Set<String> all = new LinkedHashSet<>();
    summaries.forEach(s -> all.addAll(s.point().keySet()));
    for (String k : all) {
      Set<String> values = new LinkedHashSet<>();
      summaries.forEach(s -> values.add(String.valueOf(s.point().get(k))));
      if (values.size() > 1 || k.equals("clients") || k.equals("target")) {
        keys.add(k);
      }
    }
    return keys;
  }

  private static String distinct(List<TrialResult> ts, Function<TrialResult, String> f) {
    Set<String> v = new LinkedHashSet<>();
    for (TrialResult t : ts) {
      String s = f.apply(t);
      if (s != null) {
        v.add(s);
      }
    }
    return String.join("; ", v);
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

  private static String dur(Duration d) {
    return d == null ? "" : Durations.format(d);
  }
}
