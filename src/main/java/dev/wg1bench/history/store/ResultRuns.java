package dev.wg1bench.history.store;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.wg1bench.json.FiniteNumbers;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.replay.result.ReplayJson;
import dev.wg1bench.replay.result.ReplayResult;
import dev.wg1bench.report.HtmlReport;
import dev.wg1bench.result.AgentRun;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.Summaries;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.stats.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * A wg1bench result file as a stored run: one run per file, one figure per (point, metric). Reads
 * every kind the tool writes: a run or a sweep (with repeats), an advise result, a merged agents'
 * result, a replay or a replay sweep. A file of another kind is refused with one line naming it.
 *
 * <p>A point's configuration is named as {@code WORKLOAD KEY=VALUE ... @TARGET}: the point's knob
 * values in the order the result lists them (every knob the plan sets, in the order {@code
 * plan/Knobs} declares them), so the same command line always gives the same name, e.g. {@code
 * select_only clients=4 queryMode=simple isolation=default @embedded}. A figure the result does not
 * have is left out, never stored as 0.
 */
public final class ResultRuns {
  private ResultRuns() {}

  /** Results as read back by any version: fields this one does not know are skipped. */
  private static final ObjectReader LENIENT =
      Json.RESULTS.reader().without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  static final String EXPECTED =
      "expected the JSON result of a wg1bench run, sweep, advise, merge or replay";

  /**
   * The run a result file holds, with its own attributes (source file, wg1bench version, server,
   * machine) under the given ones (commit, branch, CI build, --attr), which win.
   *
   * @throws UsageException naming the file when it is not a result this can store
   */
  public static StoredRun read(Path file, Map<String, String> attributes) {
    JsonNode tree;
    try {
      tree = Json.MAPPER.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new UsageException(file + ": no such file; " + EXPECTED);
    } catch (IOException e) {
      if (Files.isDirectory(file)) {
        throw new UsageException(file + ": is a directory; " + EXPECTED);
      }
      throw new UsageException(
          file + ": not JSON (" + firstLine(e.getMessage()) + "); " + EXPECTED);
    }
    if (tree == null || !tree.isObject()) {
      throw new UsageException(file + ": not a wg1bench result; " + EXPECTED);
    }
    String kind = tree.path("kind").asText("");
    StoredRun run;
    try {
      if (kind.equals("replay")) {
        run = replay(ReplayJson.trials(LENIENT, tree), "replay");
      } else if (kind.equals("replay-sweep")) {
        run = replay(ReplayJson.trials(LENIENT, tree), "replay-sweep");
      } else if ("wg1bench".equals(tree.path("tool").asText()) && tree.has("trials")) {
        HtmlReport.Source s = HtmlReport.read(file);
        run = benchmark(file, s.run(), s.advice());
      } else {
        throw new UsageException(file + ": not a wg1bench result; " + EXPECTED);
      }
    } catch (FiniteNumbers.NotAFigure e) {
      throw new UsageException(file + ": " + firstLine(e.getOriginalMessage()));
    } catch (HtmlReport.BadInput e) {
      if (e.getCause() instanceof FiniteNumbers.NotAFigure) {
        throw new UsageException(e.getMessage());
      }
      throw new UsageException(
          file + ": not a wg1bench result (" + firstLine(e.getMessage()) + "); " + EXPECTED);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException(
          file + ": not a wg1bench result (" + firstLine(e.getMessage()) + "); " + EXPECTED);
    }
    Map<String, String> attrs = new LinkedHashMap<>(run.attributes());
    attrs.put("source", file.toAbsolutePath().normalize().toString());
    attrs.putAll(attributes);
    return new StoredRun(null, run.time(), run.kind(), attrs, run.metrics());
  }

  /**
   * Refuses a result with a trial that did not run as asked (a client could not start, the pool
   * could not fill): its figures are another workload's (fewer clients, a smaller pool), and stored
   * they would enter the configuration's series and the gate's baseline as its own.
   */
  private static void ranAsAsked(Path file, BenchmarkRun r) {
    for (TrialResult t : r.trials()) {
      if (t.measurement() != null && t.measurement().notAsAsked() != null) {
        throw new UsageException(
            file
                + ": trial "
                + t.sequence()
                + " did not run as asked ("
                + t.measurement().notAsAsked()
                + "); its figures are not the configuration's, nothing stored");
      }
    }
  }

  private static StoredRun benchmark(Path file, BenchmarkRun r, List<JsonNode> advice) {
    if (r.trials().isEmpty()) {
      throw new UsageException(file + ": a result with no trials, nothing to store");
    }
    AgentRun a = r.agents();
    if (a != null && a.members().size() + a.missing().size() < a.count()) {
      throw new UsageException(
          file
              + ": one agent's part of a run of "
              + a.count()
              + " agents; store the result 'wg1bench merge' makes of all the parts");
    }
    ranAsAsked(file, r);
    Map<String, String> attrs = new LinkedHashMap<>();
    putIf(attrs, "wg1benchVersion", r.version());
    putIf(attrs, "workload", r.workload());
    machine(attrs, r.machine());
    server(attrs, r.trials().stream().map(TrialResult::server).toList());
    if (a != null) {
      attrs.put("agents", String.valueOf(a.count()));
      attrs.put("agentsMissing", String.valueOf(a.missing().size()));
    }
    Map<Map<String, String>, List<TrialResult>> points = new LinkedHashMap<>();
    Instant start = null;
    for (TrialResult t : r.trials()) {
      // a file without the trial's point (edited, or cut) is of one point: no sweep
      Map<String, String> point = t.point() == null ? Map.of() : t.point();
      points.computeIfAbsent(point, k -> new ArrayList<>()).add(t);
      Instant s = instant(file, t.startedAt());
      start = start == null || s.isBefore(start) ? s : start;
    }
    List<StoredMetric> metrics = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (Map.Entry<Map<String, String>, List<TrialResult>> p : points.entrySet()) {
      String named = p.getKey().get("workload");
      String workload = named != null ? named : r.workload();
      // a built-in workload is a script too, but its own name says what ran
      String scripts = "custom".equals(workload) ? scripts(r) : null;
      String name = scripts != null ? scripts : workload;
      String config = config(name, p.getValue().get(0).target(), p.getKey());
      if (!seen.add(config)) {
        throw new UsageException(file + ": two points both named '" + config + "'");
      }
      metrics.addAll(point(config, p.getValue()));
    }
    for (JsonNode n : advice) {
      StoredMetric m = advice(n);
      if (m != null) {
        metrics.add(m);
      }
    }
    String kind = !advice.isEmpty() ? "advise" : points.size() > 1 ? "sweep" : "run";
    return new StoredRun(null, start, kind, attrs, metrics);
  }

  /**
   * What ran: the workload's name, or for a run of script files ("custom") the files' names, so two
   * different scripts are two configurations: {@code one.sql}, {@code a.sql*2+b.sql*1} with
   * weights.
   */
  static String scripts(BenchmarkRun r) {
    List<ScriptSource> scripts = r.plan() == null ? null : r.plan().scripts();
    if (scripts == null || scripts.isEmpty()) {
      return null;
    }
    boolean weighted = scripts.stream().anyMatch(s -> s.weight() != scripts.get(0).weight());
    List<String> names = new ArrayList<>();
    for (ScriptSource s : scripts) {
      String name = String.valueOf(s.label() == null ? s.name() : s.label());
      String n = name.substring(name.lastIndexOf('/') + 1);
      names.add(weighted ? n + "*" + s.weight() : n);
    }
    return String.join("+", names);
  }

  /**
   * The figures of one point. One trial: its own, tps with its batch-means interval. Repeats: tps
   * is the mean of the trials' with the 95% Student interval over them (the repeats are the
   * samples), latencies and costs the median of the trials' (the summary's figure), failed ops and
   * retries the sum (the summary's figure), and the ops attempted (successful and failed) the sum:
   * the exposure the gate judges failed ops and retries as rates of.
   */
  static List<StoredMetric> point(String config, List<TrialResult> trials) {
    List<Measurement> ms = trials.stream().map(TrialResult::measurement).toList();
    List<StoredMetric> out = new ArrayList<>();
    if (ms.size() == 1) {
      Measurement m = ms.get(0);
      double tps = m.tps();
      Double e = m.tpsError();
      out.add(
          metric(
              config,
              "tps",
              true,
              tps,
              e == null ? Double.NaN : tps - e,
              e == null ? Double.NaN : tps + e));
    } else {
      double[] v = ms.stream().mapToDouble(Measurement::tps).toArray();
      double mean = Arrays.stream(v).average().orElseThrow();
      double ss = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum();
      double half =
          Stats.tQuantile(0.975, v.length - 1) * Math.sqrt(ss / (v.length - 1) / v.length);
      out.add(metric(config, "tps", true, mean, mean - half, mean + half));
    }
    median(out, config, "p50", false, ms, Measurement::latencyMs, Latency::p50);
    median(out, config, "p99", false, ms, Measurement::latencyMs, Latency::p99);
    median(out, config, "p99.9", false, ms, Measurement::latencyMs, Latency::p999);
    long failed = ms.stream().mapToLong(Measurement::failedOps).sum();
    out.add(metric(config, "failedOps", false, failed));
    out.add(metric(config, "retries", false, ms.stream().mapToLong(Measurement::retries).sum()));
    // what failed ops and retries are rates of: every op the windows attempted, failed or not
    long attempted = ms.stream().mapToLong(m -> m.ops() + m.failedOps()).sum();
    out.add(metric(config, SeriesOf.ATTEMPTED_OPS, true, attempted));
    median(
        out,
        config,
        "clientCpuPerOp",
        false,
        ms,
        Measurement::clientCpuMicrosPerOp,
        Double::doubleValue);
    // counts per op, judged as exact figures where their history is (RegressionGate)
    median(
        out, config, "roundTripsPerOp", false, ms, Measurement::perOp, p -> known(p.roundTrips()));
    median(
        out, config, "statementsPerOp", false, ms, Measurement::perOp, p -> known(p.statements()));
    // more commits per second is more work done
    median(
        out,
        config,
        "serverCommitsPerSec",
        true,
        ms,
        Measurement::serverCommitsPerSecond,
        Double::doubleValue);
    return out;
  }

  /** A figure that may be unknown: NaN then, which {@link #median} leaves out. */
  private static double known(Double v) {
    return v == null ? Double.NaN : v;
  }

  /** The median over the trials of a figure every trial has; absent when one lacks it. */
  private static <T> void median(
      List<StoredMetric> out,
      String config,
      String metric,
      boolean higherIsBetter,
      List<Measurement> ms,
      Function<Measurement, T> part,
      ToDoubleFunction<T> figure) {
    double[] v = new double[ms.size()];
    for (int i = 0; i < v.length; i++) {
      T p = part.apply(ms.get(i));
      if (p == null) {
        return;
      }
      v[i] = figure.applyAsDouble(p);
      if (!Double.isFinite(v[i])) {
        return;
      }
    }
    out.add(metric(config, metric, higherIsBetter, Summaries.median(v)));
  }

  /** An advice's ratio (treatment / baseline) with its 95% interval, when it was measured. */
  private static StoredMetric advice(JsonNode n) {
    if (!"measured".equals(n.path("status").asText()) || !finite(n.path("ratio"))) {
      return null;
    }
    String metric = n.path("metric").asText("tps");
    double low = finite(n.path("ciLow")) ? n.path("ciLow").asDouble() : Double.NaN;
    double high = finite(n.path("ciHigh")) ? n.path("ciHigh").asDouble() : Double.NaN;
    String config = "advise " + n.path("name").asText() + " @" + n.path("target").asText();
    // a tps ratio above 1 is the treatment faster; a latency ratio above 1, slower
    return new StoredMetric(
        config, metric + "Ratio", metric.equals("tps"), n.path("ratio").asDouble(), low, high);
  }

  /** A JSON number that is a figure: -1e400 is read as -Infinity, which is none. */
  private static boolean finite(JsonNode n) {
    return n.isNumber() && Double.isFinite(n.asDouble());
  }

  private static StoredRun replay(List<ReplayResult> trials, String kind) {
    if (trials == null || trials.isEmpty()) {
      throw new IllegalArgumentException("a replay result with no trials");
    }
    Map<String, String> attrs = new LinkedHashMap<>();
    ReplayResult first = trials.get(0);
    putIf(attrs, "wg1benchVersion", first.version());
    machine(attrs, first.machine());
    server(attrs, trials.stream().map(ReplayResult::server).toList());
    Instant start = null;
    List<StoredMetric> metrics = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (ReplayResult t : trials) {
      if (t.started() == null || t.throughput() == null || t.pace() == null) {
        throw new IllegalArgumentException("a replay trial without its start, throughput or pace");
      }
      start = start == null || t.started().isBefore(start) ? t.started() : start;
      String logs =
          t.logs() == null
              ? "?"
              : String.join(
                  ",", t.logs().stream().map(l -> Path.of(l).getFileName().toString()).toList());
      Map<String, String> knobs = new LinkedHashMap<>();
      if (t.settings() != null) {
        knobs.putAll(t.settings());
      }
      if (t.point() != null) {
        t.point().forEach(knobs::putIfAbsent);
      }
      knobs.remove("workload");
      String config = config("replay " + logs, t.target(), knobs);
      if (!seen.add(config)) {
        continue; // a repeat of a point: the first trial stands for it
      }
      metrics.add(metric(config, "tps", true, t.throughput().tps()));
      metrics.add(metric(config, "statementsPerSec", true, t.pace().statementsPerSecond()));
    }
    return new StoredRun(null, start, kind, attrs, metrics);
  }

  /**
   * A point's configuration: {@code WORKLOAD KEY=VALUE ... @TARGET}, the knob values in the
   * result's order, the target last.
   */
  static String config(String workload, String target, Map<String, String> point) {
    StringBuilder b = new StringBuilder(workload);
    point.forEach(
        (k, v) -> {
          if (!k.equals("workload") && !k.equals("target")) {
            b.append(' ').append(k).append('=').append(v);
          }
        });
    return b.append(" @").append(point.getOrDefault("target", target)).toString();
  }

  private static StoredMetric metric(String config, String metric, boolean higher, double v) {
    return metric(config, metric, higher, v, Double.NaN, Double.NaN);
  }

  private static StoredMetric metric(
      String config, String metric, boolean higher, double v, double low, double high) {
    return new StoredMetric(config, metric, higher, v, low, high);
  }

  private static void machine(Map<String, String> attrs, Machine m) {
    if (m != null) {
      putIf(attrs, "machine", m.hostname());
      putIf(attrs, "cpuModel", m.cpuModel());
      if (m.cores() > 0) {
        attrs.put("cores", String.valueOf(m.cores()));
      }
    }
  }

  /** The servers' versions, each once, in the order the trials ran on them. */
  private static void server(Map<String, String> attrs, List<ServerInfo> servers) {
    Set<String> v = new LinkedHashSet<>();
    servers.forEach(
        s -> {
          if (s != null && s.version() != null) {
            v.add(s.version());
          }
        });
    if (!v.isEmpty()) {
      attrs.put("serverVersion", String.join(",", v));
    }
  }

  private static void putIf(Map<String, String> attrs, String key, String value) {
    if (value != null && !value.isBlank()) {
      attrs.put(key, value);
    }
  }

  private static Instant instant(Path file, String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException | NullPointerException e) {
      throw new UsageException(file + ": a trial's startedAt '" + text + "' is not an instant");
    }
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }
}
