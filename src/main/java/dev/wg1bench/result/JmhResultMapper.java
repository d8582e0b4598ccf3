package dev.wg1bench.result;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.jmh.JmhLaunch;
import dev.wg1bench.jmh.TrialSpec;
import dev.wg1bench.jmh.WorkloadBenchmark;
import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.ServerInfo;
import dev.wg1bench.server.ServerSampler;
import dev.wg1bench.server.Targets;
import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.server.window.ServerSides;
import dev.wg1bench.stats.BatchMeans;
import dev.wg1bench.workload.Workload;
import java.net.URLDecoder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.postgresql.util.DriverInfo;

/** The only place that reads JMH's result types; everything after it sees wg1bench records. */
public final class JmhResultMapper {
  private JmhResultMapper() {}

  public static TrialResult map(
      TrialSpec trial,
      JmhLaunch.Outcome outcome,
      ServerInfo server,
      Workload workload,
      String dataset,
      List<ServerSampler.Sample> serverSamples,
      Instant started,
      Instant finished) {
    Tally tally = Tally.empty();
    for (ForkReport f : outcome.forks()) {
      tally.after(Tally.of(f));
    }
    Measurement m =
        withPrediction(measurement(tally, trial, workload, serverSide(outcome.forks())), trial);
    return new TrialResult(
        new TrialResult.Position(trial.point(), trial.repeat(), trial.sequence()),
        subject(trial, dataset),
        server,
        client(trial, server, sawClient(outcome.forks()), ClientThreads.of(outcome.forks())),
        m,
        tally.errors(),
        progress(outcome.progress()),
        serverSamples,
        started.toString(),
        finished.toString(),
        tally.outages(),
        null);
  }

  /** The forks' merged tally as the result's figures, before any prediction. */
  private static Measurement measurement(
      Tally tally, TrialSpec trial, Workload workload, ServerSide side) {
    double seconds = tally.forkSeconds();
    BatchMeans.Interval interval = tally.interval(seconds);
    int rowsPerOp = workload.rowsInsertedPerOp();
    return new Measurement(
        tally.throughput(seconds, interval, interval.method()),
        tally.counts(
            seconds,
            rowsPerOp > 0 ? (double) rowsPerOp : null,
            // a workload class's: as the sockets saw the server complete them, where they could
            workload.countsStatements() || tally.measured().protocolOps > 0),
        new Measurement.Latencies(
            tally.scheduleLag() != null ? "scheduled start" : "op start",
            tally.latency(),
            tally.skipped(),
            tally.late(),
            tally.poolWait(),
            tally.scheduleLag()),
        tally.cpu(SameHost.of(trial.target())),
        tally.series(),
        tally.wholeTrial(),
        tally.scripts(seconds),
        perOp(tally, trial, workload, side),
        side,
        null);
  }

  /** What one op carried on the wire, with the server's time per op where a window read it. */
  private static PerOp perOp(Tally tally, TrialSpec trial, Workload workload, ServerSide side) {
    return PerOp.of(
            tally.measured(),
            workload.countsStatements(),
            new ConnectionFactory(trial.target(), trial.client()).wireNotCounted(),
            null,
            null)
        .withServerMs(
            side == null ? null : side.serverMsPerOp(tally.measured().ok), serverMsWhy(side));
  }

  /** What was measured: the target and the data on it. */
  private static TrialResult.Subject subject(TrialSpec trial, String dataset) {
    return new TrialResult.Subject(
        trial.target().name(),
        Targets.label(trial.target().kind()),
        trial.target().jdbcUrl(),
        trial.target().provision(),
        trial.scale(),
        dataset);
  }

  /** The forks' measured windows' server sides as one (they ran one after another), or null. */
  private static ServerSide serverSide(List<ForkReport> forks) {
    List<ServerSide> parts = new ArrayList<>();
    for (ForkReport f : forks) {
      for (ForkReport.Window w : f.windows) {
        if (w.serverSide != null) {
          parts.add(w.serverSide);
        }
      }
    }
    return parts.isEmpty() ? null : ServerSides.sequential(parts);
  }

  /** {@code m} with its prediction at other round-trip times (Predictions). */
  private static Measurement withPrediction(Measurement m, TrialSpec trial) {
    int clients = trial.slot() != null ? trial.slot().clients() : trial.plan().clients();
    double rttMs = trial.client().driver().rtt().toNanos() / 1e6;
    return new Measurement(
        m.throughput(),
        m.counts(),
        m.latency(),
        m.cpu(),
        m.series(),
        m.trial(),
        m.scripts(),
        m.perOp(),
        m.serverSide(),
        Predictions.of(
            m.latencyMs(),
            m.perOp(),
            rttMs,
            clients,
            m.tps(),
            trial.plan().timing().predictAtMs()));
  }

  /** Why the server's time per op is unknown, or null. */
  static String serverMsWhy(ServerSide side) {
    if (side == null) {
      return "server time per op not read: no measured window read the server's side";
    }
    return side.statements() == null ? "server time per op: " + side.statementsWhy() : null;
  }

  /**
   * The fork whose client connection was read (pg_stat_ssl and the --set values): the first that
   * read one, else the last.
   */
  private static ForkReport sawClient(List<ForkReport> forks) {
    ForkReport seen = null;
    for (ForkReport f : forks) {
      seen = f;
      if (f.clientSsl != null) {
        break;
      }
    }
    return seen;
  }

  /**
   * What the fork's client session negotiated; when the session opened to read it was refused, that
   * it is unknown and why; null when no fork said.
   */
  private static String ssl(ForkReport f) {
    if (f == null || f.clientSsl != null || f.clientSslRefused == null) {
      return f == null ? null : f.clientSsl;
    }
    return "unknown (the probe was refused: " + f.clientSslRefused + ")";
  }

  /** How the clients talked to the server: the plan's settings, what a fork's client saw. */
  private static ClientInfo client(
      TrialSpec trial, ServerInfo server, ForkReport first, ClientThreads threads) {
    RunPlan p = trial.plan();
    DriverKnobs d = p.driver();
    Isolation iso = trial.client().isolation();
    return new ClientInfo(
        new ClientInfo.Protocol(
            DriverInfo.DRIVER_VERSION,
            p.session().queryMode().cliName(),
            p.session().queryMode().preferQueryMode(),
            d.prepareThreshold() != null
                ? d.prepareThreshold()
                : p.session().queryMode().prepareThreshold()),
        new ClientInfo.Session(
            iso == null
                ? "server default (" + server.settings().get("default_transaction_isolation") + ")"
                : iso.sqlName(),
            sslmodeAsked(d, trial.target().jdbcUrl()),
            ssl(first),
            first == null ? Map.of() : first.clientSettings),
        new ClientInfo.Driver(
            d.binaryTransfer() == null || d.binaryTransfer(),
            d.fetchSize() == null ? 0 : d.fetchSize(),
            d.rewriteBatchedInserts(),
            d.properties(),
            d.rtt().toNanos() / 1e6),
        new ClientInfo.Connections(
            p.clients(),
            p.connections(),
            p.pooled() ? new PoolInfo("HikariCP " + hikariVersion(), p.poolSize(), 300_000) : null),
        new ClientInfo.Timeouts(
            ConnectionFactory.socketTimeoutSeconds(d, ConnectionFactory.BENCHMARK_SOCKET_TIMEOUT_S),
            WorkloadBenchmark.stallGraceSeconds()),
        threads);
  }

  /** The --progress lines the forks printed, as read back. */
  private static List<ProgressPoint> progress(List<JsonNode> lines) {
    List<ProgressPoint> progress = new ArrayList<>();
    for (JsonNode n : lines) {
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
    return progress;
  }

  private static String hikariVersion() {
    String v = HikariDataSource.class.getPackage().getImplementationVersion();
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
        return eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), UTF_8);
      }
    }
    return null;
  }
}
