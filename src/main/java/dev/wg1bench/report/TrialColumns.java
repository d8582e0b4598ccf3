package dev.wg1bench.report;

import static dev.wg1bench.report.Column.Format.COUNT;
import static dev.wg1bench.report.Column.Format.DATE;
import static dev.wg1bench.report.Column.Format.MS;
import static dev.wg1bench.report.Column.Format.PER_OP;
import static dev.wg1bench.report.Column.Format.TEXT;
import static dev.wg1bench.report.Column.Format.TPS;

import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.PerOp;
import dev.wg1bench.result.TrialResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The columns of a trial, in the CSV's order: the CSV writes them all after the trial's sequence,
 * repeat and knobs; the page's trials table shows those not marked CSV-only; the console's line per
 * trial ({@link ConsoleReport#trialLine}) those with a console text. A trial without a measurement
 * has empty cells.
 */
final class TrialColumns {
  private TrialColumns() {}

  static final List<Column<TrialResult>> ALL =
      List.of(
          Column.<TrialResult>of("tps", "tps", TPS, m(Measurement::tps))
              .page(
                  t ->
                      HtmlReport.tps(t.measurement().tps())
                          + (t.measurement().tpsError() == null
                              ? ""
                              : " \u00b1 " + HtmlReport.tps(t.measurement().tpsError())))
              .inline(1, t -> "tps " + ConsoleReport.tps(t.measurement())),
          Column.<TrialResult>of("tpsError", "tps ±95%", TPS, m(Measurement::tpsError)).csvOnly(),
          Column.<TrialResult>of(
                  "attemptedOpsPerSecond",
                  "attempted ops/s",
                  TPS,
                  m(Measurement::attemptedOpsPerSecond))
              .csvOnly(),
          Column.<TrialResult>of("ops", "ops", COUNT, m(Measurement::ops)).csvOnly(),
          // the measurement windows' failures, as every figure of the trial; the page and the
          // console add their kinds, the whole trial's (warmup included) is totalFailedOps
          Column.<TrialResult>of("failedOps", "failed ops", COUNT, m(Measurement::failedOps))
              .page(t -> t.measurement().failedOps() + kinds(t.measurement()))
              .inline(4, t -> "failed " + t.measurement().failedOps() + listed(t.measurement())),
          Column.<TrialResult>of("retries", "retries", COUNT, m(Measurement::retries))
              .inline(5, t -> "retries " + t.measurement().retries()),
          Column.<TrialResult>of(
                  "statementsPerSecond", "statements/s", TPS, m(Measurement::statementsPerSecond))
              .csvOnly(),
          Column.<TrialResult>of("rowsPerSecond", "rows/s", TPS, m(Measurement::rowsPerSecond))
              .csvOnly(),
          // measurement.perOp's figures, each over the ops it was counted for (result.PerOp)
          Column.<TrialResult>of("roundTripsPerOp", "round trips/op", PER_OP, p(PerOp::roundTrips))
              .csvOnly(),
          Column.<TrialResult>of("statementsPerOp", "statements/op", PER_OP, p(PerOp::statements))
              .csvOnly(),
          Column.<TrialResult>of("rowsPerOp", "rows/op", PER_OP, p(PerOp::rows)).csvOnly(),
          Column.<TrialResult>of("bytesSentPerOp", "bytes sent/op", TPS, p(PerOp::bytesSent))
              .csvOnly(),
          Column.<TrialResult>of(
                  "bytesReceivedPerOp", "bytes received/op", TPS, p(PerOp::bytesReceived))
              .csvOnly(),
          Column.<TrialResult>of("serverMsPerOp", "server ms/op", MS, p(PerOp::serverMs)).csvOnly(),
          Column.<TrialResult>of("latencyMeanMs", "mean (ms)", MS, l(Latency::mean)).csvOnly(),
          Column.<TrialResult>of("latencyP50Ms", "p50 (ms)", MS, l(Latency::p50))
              .inline(2, t -> ms("p50", t.measurement().latencyMs().p50())),
          Column.<TrialResult>of("latencyP90Ms", "p90 (ms)", MS, l(Latency::p90)).csvOnly(),
          Column.<TrialResult>of("latencyP99Ms", "p99 (ms)", MS, l(Latency::p99))
              .inline(3, t -> ms("p99", t.measurement().latencyMs().p99())),
          Column.<TrialResult>of("latencyP999Ms", "p99.9 (ms)", MS, l(Latency::p999)).csvOnly(),
          Column.<TrialResult>of("latencyMaxMs", "max (ms)", MS, l(Latency::max)).csvOnly(),
          Column.<TrialResult>of(
                  "poolWaitP99Ms",
                  "pool wait p99 (ms)",
                  MS,
                  m(x -> x.poolWaitMs() == null ? null : x.poolWaitMs().p99()))
              .csvOnly(),
          Column.<TrialResult>of(
                  "scheduleLagP99Ms",
                  "schedule lag p99 (ms)",
                  MS,
                  m(x -> x.scheduleLagMs() == null ? null : x.scheduleLagMs().p99()))
              .csvOnly(),
          Column.<TrialResult>of(
                  "serverVersion",
                  "server",
                  TEXT,
                  t -> t.server() == null ? null : t.server().version())
              .csvOnly(),
          Column.<TrialResult>of("ssl", "ssl", TEXT, TrialColumns::ssl).csvOnly(),
          Column.<TrialResult>of(
              "clientsStopped", "clients stopped", COUNT, m(Measurement::clientsStopped)),
          Column.<TrialResult>of(
                  "clientsStoppedBy",
                  "clients stopped by",
                  TEXT,
                  m(x -> x.clientsStopped() == 0 ? null : x.clientsStoppedBy()))
              .csvOnly(),
          Column.<TrialResult>of("stoppedBy", "stopped by", TEXT, m(Measurement::stoppedBy))
              .csvOnly(),
          Column.<TrialResult>of(
              "totalFailedOps", "total failed ops", COUNT, m(Measurement::totalFailedOps)),
          Column.<TrialResult>of("startedAt", "started", DATE, TrialResult::startedAt));

  /** A figure of the trial's measurement; none when it has no measurement. */
  private static <V> Function<TrialResult, V> m(Function<Measurement, V> f) {
    return t -> t.measurement() == null ? null : f.apply(t.measurement());
  }

  /** A figure per op of the trial; none when it has none. */
  private static <V> Function<TrialResult, V> p(Function<PerOp, V> f) {
    return t ->
        t.measurement() == null || t.measurement().perOp() == null
            ? null
            : f.apply(t.measurement().perOp());
  }

  /** A figure of the trial's latency; none when it has none. */
  private static <V> Function<TrialResult, V> l(Function<Latency, V> f) {
    return t ->
        t.measurement() == null || t.measurement().latencyMs() == null
            ? null
            : f.apply(t.measurement().latencyMs());
  }

  /** What the client negotiated, else what the server offered. */
  private static String ssl(TrialResult t) {
    if (t.client() != null && t.client().ssl() != null) {
      return t.client().ssl();
    }
    return t.server() == null ? null : t.server().ssl();
  }

  private static String ms(String name, double v) {
    return String.format(Locale.ROOT, "%s %.3f ms", name, v);
  }

  /** As {@link #kinds}, in the order the measurement lists them (the console's line). */
  private static String listed(Measurement m) {
    if (m.failures() == null || m.failures().isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    m.failures().forEach((k, v) -> parts.add(k + " " + v));
    return " (" + String.join(", ", parts) + ")";
  }

  /** " (serialization 3, deadlock 1)" when the failures are broken down by kind, else "". */
  static String kinds(Measurement m) {
    if (m.failures() == null || m.failures().isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    new TreeMap<>(m.failures()).forEach((k, v) -> parts.add(k + " " + v));
    return " (" + String.join(", ", parts) + ")";
  }
}
