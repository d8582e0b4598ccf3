package dev.wg1bench.result;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.wg1bench.jmh.ForkReport;
import dev.wg1bench.jmh.Trial;
import dev.wg1bench.jmh.TrialRunner;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.workload.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The only place that reads JMH's result types; everything after it sees wg1bench records. */
public final class JmhResultMapper {
  private JmhResultMapper() {}

  public static TrialResult map(
      Trial trial,
      TrialRunner.Outcome outcome,
      ServerInfo server,
      Workload workload,
      String dataset,
      List<dev.wg1bench.server.ServerSampler.Sample> serverSamples,
      Instant started,
      Instant finished) {
    RunPlan p = trial.plan();
    List<ForkReport> forks = outcome.forks();
    Histogram h = new Histogram(3);
    Histogram wait = new Histogram(3);
    Histogram lag = new Histogram(3);
    boolean pooled = false;
    boolean paced = false;
    long skipped = 0;
    long late = 0;
    long ok = 0;
    long failed = 0;
    long retries = 0;
    long retriedOps = 0;
    long statements = 0;
    long nanos = 0;
    long cpu = 0;
    long totalOk = 0;
    long totalFailed = 0;
    long cpuCoreNanos = 0;
    long serverCommits = 0;
    long serverNanos = 0;
    boolean serverCounted = true;
    List<Double> perWindow = new ArrayList<>();
    List<Window> windows = new ArrayList<>();
    List<Long> perSecond = new ArrayList<>();
    Map<String, Long> failures = new LinkedHashMap<>();
    Map<String, ErrorRecord> errors = new LinkedHashMap<>();
    List<Outage> outages = new ArrayList<>();
    String stoppedBy = null;
    int clientsStopped = 0;
    long connectNanos = 0;
    int connects = 0;
    String clientsStoppedBy = null;
    String ssl = null;
    Map<String, String> settings = Map.of();
    for (ForkReport f : forks) {
      h.add(Histograms.decode(f.histogram));
      if (f.poolWaitHistogram != null) {
        pooled = true;
        wait.add(Histograms.decode(f.poolWaitHistogram));
      }
      if (f.lagHistogram != null) {
        paced = true;
        lag.add(Histograms.decode(f.lagHistogram));
      }
      skipped += f.measuredSkipped;
      late += f.measuredLate;
      ok += f.measuredOk;
      failed += f.measuredFailed;
      retries += f.measuredRetries;
      retriedOps += f.measuredRetriedOps;
      statements += f.measuredStatements;
      nanos += f.measuredNanos;
      cpu += f.measuredCpuNanos;
      cpuCoreNanos += f.cores > 0 ? f.measuredNanos * f.cores : 0;
      for (ForkReport.Window w : f.windows) {
        perWindow.add(w.nanos > 0 ? w.ok * 1e9 / w.nanos : 0);
        windows.add(
            new Window(
                Instant.ofEpochSecond(0, w.startEpochMicros * 1000).toString(),
                w.nanos / 1e9,
                w.ok,
                w.failed,
                w.serverCommits,
                w.serverCommits == null ? null : w.serverNanos / 1e9,
                w.walStart,
                w.walEnd));
        // whole seconds only: a partial last second would read as a drop in throughput
        long whole = w.nanos / 1_000_000_000L;
        for (int i = 0; i < whole && i < w.okPerSecond.length; i++) {
          perSecond.add(w.okPerSecond[i]);
        }
        if (w.serverCommits == null || Math.abs(w.serverNanos - w.nanos) > w.nanos / 10) {
          // reading the counter took so long (a stalled server or client) that the time between
          // the reads is not the window: no server rate rather than a wrong one
          serverCounted = false;
        } else {
          serverCommits += w.serverCommits;
          serverNanos += w.serverNanos;
        }
      }
      if (f.windows.isEmpty()) {
        serverCounted = false;
      }
      totalOk += f.totalOk;
      totalFailed += f.totalFailed;
      f.failuresByKind.forEach((k, v) -> failures.merge(k, v, Long::sum));
      for (ForkReport.ErrorEntry e : f.errors) {
        String key = e.phase + "/" + e.kind + "/" + e.sqlState;
        ErrorRecord prev = errors.get(key);
        errors.put(
            key,
            prev == null
                ? new ErrorRecord(
                    e.kind,
                    e.sqlState,
                    e.firstMessage,
                    Instant.ofEpochMilli(e.firstAtEpochMs).toString(),
                    e.count,
                    e.retried,
                    e.phase,
                    instant(e.lastAtEpochMs))
                : new ErrorRecord(
                    prev.kind(),
                    prev.sqlState(),
                    prev.firstMessage(),
                    prev.firstAt(),
                    prev.count() + e.count,
                    prev.retried() + e.retried,
                    prev.phase(),
                    later(prev.lastAt(), instant(e.lastAtEpochMs))));
      }
      for (ForkReport.Outage o : f.outages) {
        boolean back = o.backAtEpochMs > 0;
        outages.add(
            new Outage(
                Instant.ofEpochMilli(o.lostAtEpochMs).toString(),
                back ? Instant.ofEpochMilli(o.backAtEpochMs).toString() : null,
                back ? (o.backAtEpochMs - o.lostAtEpochMs) / 1000.0 : null,
                o.clientsLost,
                o.clientsReconnected,
                o.failedOps));
      }
      if (stoppedBy == null) {
        stoppedBy = f.stoppedBy;
      }
      // every fork runs all the clients: the figure is per fork, not a sum
      clientsStopped = Math.max(clientsStopped, f.clientsStopped);
      connectNanos += f.connectNanos;
      connects += f.connects;
      if (clientsStoppedBy == null) {
        clientsStoppedBy = f.clientsStoppedBy;
      }
      if (ssl == null) {
        ssl = f.clientSsl;
        settings = f.clientSettings;
      }
    }
    double seconds = nanos / 1e9;
    // every rate is a count of ops that completed inside the windows over the windows' length
    // (see jmh.MeasurementWindow); JMH's own score over-counts at many clients
    double tps = seconds > 0 ? ok / seconds : 0;
    double attempted = seconds > 0 ? (ok + failed) / seconds : 0;
    BatchMeans.Interval interval = BatchMeans.of(tps, perSecond);
    int rowsPerOp = workload.rowsInsertedPerOp();
    Latency latency = latency(h);
    Measurement m =
        new Measurement(
            tps,
            interval.halfWidth(),
            interval.method(),
            attempted,
            seconds,
            serverCounted && serverNanos > 0 ? serverCommits * 1e9 / serverNanos : null,
            ok,
            failed,
            retries,
            retriedOps,
            failures,
            statements,
            seconds > 0 ? statements / seconds : 0,
            rowsPerOp > 0 ? tps * rowsPerOp : null,
            paced ? "scheduled start" : "op start",
            latency,
            skipped,
            late,
            pooled ? latency(wait) : null,
            paced ? latency(lag) : null,
            ok + failed > 0 && cpu > 0 ? cpu / 1000.0 / (ok + failed) : null,
            cpuCoreNanos > 0 && SameHost.of(trial.target()) ? (double) cpu / cpuCoreNanos : null,
            perWindow,
            windows,
            perSecond,
            Histograms.encode(h),
            totalOk,
            totalFailed,
            stoppedBy,
            clientsStopped,
            clientsStoppedBy,
            connects > 0 ? Math.round(connectNanos / 1000.0 / connects) / 1000.0 : null,
            scripts(forks, seconds));
    Isolation iso = trial.isolation();
    DriverKnobs d = p.driver();
    ClientInfo client =
        new ClientInfo(
            org.postgresql.util.DriverInfo.DRIVER_VERSION,
            p.session().queryMode().cliName(),
            p.session().queryMode().preferQueryMode(),
            d.prepareThreshold() != null
                ? d.prepareThreshold()
                : p.session().queryMode().prepareThreshold(),
            iso == null
                ? "server default (" + server.settings().get("default_transaction_isolation") + ")"
                : iso.sqlName(),
            sslmodeAsked(d, trial.target().jdbcUrl()),
            ssl,
            settings,
            d.binaryTransfer() == null || d.binaryTransfer(),
            d.fetchSize() == null ? 0 : d.fetchSize(),
            d.rewriteBatchedInserts(),
            d.properties(),
            p.clients(),
            p.connections(),
            p.pooled() ? new PoolInfo("HikariCP " + hikariVersion(), p.poolSize(), 300_000) : null,
            dev.wg1bench.server.ConnectionFactory.socketTimeoutSeconds(
                d, dev.wg1bench.server.ConnectionFactory.BENCHMARK_SOCKET_TIMEOUT_S),
            dev.wg1bench.jmh.WorkloadBenchmark.stallGraceSeconds(),
            ClientThreads.of(forks));
    List<ProgressPoint> progress = new ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode n : outcome.progress()) {
      progress.add(
          new ProgressPoint(
              n.get("t").asDouble(),
              n.get("phase").asText(),
              n.get("ops").asLong(),
              n.get("opsPerSecond").asDouble(),
              n.get("p50Ms").isNull() ? null : n.get("p50Ms").asDouble(),
              n.get("p99Ms").isNull() ? null : n.get("p99Ms").asDouble(),
              n.get("retries").asLong(),
              n.get("failures").asLong(),
              n.get("skipped").asLong()));
    }
    return new TrialResult(
        trial.point(),
        trial.repeat(),
        trial.sequence(),
        trial.target().name(),
        trial.target().kind().name().toLowerCase(java.util.Locale.ROOT),
        trial.target().jdbcUrl(),
        trial.target().provision(),
        trial.scale(),
        dataset,
        server,
        client,
        m,
        new ArrayList<>(errors.values()),
        progress,
        serverSamples,
        started.toString(),
        finished.toString(),
        outages,
        null);
  }

  /**
   * The forks' per-script and per-command figures summed (every fork runs the same scripts), null
   * when no fork recorded any: the same merge as the agents' ({@link ScriptStats#merge}).
   */
  static List<ScriptStats> scripts(List<ForkReport> forks, double seconds) {
    List<List<ScriptStats>> perFork = new ArrayList<>();
    for (ForkReport f : forks) {
      if (f.scripts != null) {
        perFork.add(forkScripts(f.scripts, seconds));
      }
    }
    return ScriptStats.merge(perFork, seconds);
  }

  /** One fork's figures, nanoseconds to milliseconds. */
  private static List<ScriptStats> forkScripts(
      List<ForkReport.ScriptFigures> fork, double seconds) {
    List<ScriptStats> out = new ArrayList<>();
    for (int s = 0; s < fork.size(); s++) {
      ForkReport.ScriptFigures a = fork.get(s);
      List<CommandStats> commands = null;
      if (a.commands != null) {
        commands = new ArrayList<>();
        for (ForkReport.CommandFigures x : a.commands) {
          commands.add(
              CommandStats.of(
                  s + 1,
                  x.line,
                  a.name + ":" + x.line,
                  x.text,
                  x.count,
                  x.sumNanos / 1e6,
                  x.sumSquares / 1e12,
                  x.failures,
                  x.retries));
        }
      }
      out.add(
          ScriptStats.of(
              s + 1,
              a.name,
              a.weight,
              a.ok,
              a.failed,
              a.retries,
              a.retriedOps,
              a.retriedOpsAll,
              seconds,
              a.latencyNanos / 1e6,
              a.latencySquares / 1e12,
              commands));
    }
    return out;
  }

  /** Null for 0 (a fork that recorded no time, from before lastAt existed). */
  private static String instant(long epochMs) {
    return epochMs > 0 ? Instant.ofEpochMilli(epochMs).toString() : null;
  }

  private static String later(String a, String b) {
    if (a == null) {
      return b;
    }
    return b == null || Instant.parse(a).isAfter(Instant.parse(b)) ? a : b;
  }

  private static Latency latency(Histogram h) {
    return Latency.of(h);
  }

  private static String hikariVersion() {
    String v = com.zaxxer.hikari.HikariDataSource.class.getPackage().getImplementationVersion();
    return v == null ? "" : v;
  }

  /**
   * The sslmode the run asked for: --sslmode, else the URL's sslmode (or its ssl=true, which pgjdbc
   * reads as verify-full), else pgjdbc's default.
   */
  static String sslmodeAsked(DriverKnobs d, String url) {
    if (d.sslmode() != null) {
      return d.sslmode();
    }
    String mode = urlParameter(url, "sslmode");
    if (mode != null) {
      return mode + " (in the URL)";
    }
    String ssl = urlParameter(url, "ssl");
    if (ssl != null && !ssl.equalsIgnoreCase("false")) {
      return "verify-full (ssl=" + ssl + " in the URL)";
    }
    return "prefer (pgjdbc default)";
  }

  private static String urlParameter(String url, String name) {
    int q = url == null ? -1 : url.indexOf('?');
    if (q < 0) {
      return null;
    }
    for (String kv : url.substring(q + 1).split("&")) {
      int eq = kv.indexOf('=');
      String k = eq < 0 ? kv : kv.substring(0, eq);
      if (k.equalsIgnoreCase(name)) {
        return eq < 0 ? "" : java.net.URLDecoder.decode(kv.substring(eq + 1), UTF_8);
      }
    }
    return null;
  }
}
