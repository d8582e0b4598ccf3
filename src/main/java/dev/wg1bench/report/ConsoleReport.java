package dev.wg1bench.report;

import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Provision;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.ClientThreads;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.Latency;
import dev.wg1bench.result.Measurement;
import dev.wg1bench.result.Outage;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.result.Window;
import dev.wg1bench.server.TargetKind;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The console summary, in the spirit of pgbench's: one block per target, then a comparison. */
public final class ConsoleReport {
  private ConsoleReport() {}

  /** The container image and pooler wg1bench set up, when it did. */
  private static void provision(Provision v, PrintStream out) {
    if (v == null) {
      return;
    }
    if (v.image() != null) {
      out.printf(
          "  container %s, %s%n",
          v.image(),
          v.serverSettings().isEmpty() ? "stock settings" : "settings " + v.serverSettings());
    }
    if (v.via() != null) {
      Map<String, String> p = new LinkedHashMap<>(v.pooler());
      String version = p.remove("version");
      out.printf("  via PgBouncer %s: %s%n", version, p);
    }
  }

  /**
   * One trial in pgbench's order: where it ran, how the clients talked, what was asked of them,
   * what they did, how long it took, how fast it went, and what went wrong.
   */
  public static void trial(BenchmarkRun run, TrialResult t, PrintStream out) {
    RunPlan p = run.plan();
    Measurement m = t.measurement();
    where(run, t, out);
    clients(p, t, out);
    asked(p, m, out);
    counts(p, m, out);
    latency(p, m, out);
    PerOpConsole.print(m.perOp(), out);
    if (m.serverSide() != null) {
      ServerSideConsole.print(m.serverSide(), m.ops(), out);
    }
    PerOpConsole.prediction(m.prediction(), out);
    rates(m, out);
    throughput(p, m, out);
    CommandsConsole.print(p, run.workload(), m, out);
    incidents(p, t, m, out);
  }

  /** The workload, the target and its server, the data. */
  private static void where(BenchmarkRun run, TrialResult t, PrintStream out) {
    out.printf("workload: %s (%s)%n", run.workload(), run.seed());
    out.printf("  %s%n", run.workloadDescription());
    out.printf(
        "target: %s, PostgreSQL %s%s%n",
        t.target(),
        t.server().version(),
        Targets.has(t.targetKind(), TargetKind.Trait.STOCK_SETTINGS)
            ? " (embedded, stock settings, pg_stat_statements preloaded)"
            : "");
    out.printf("  %s%n", t.url());
    provision(t.provision(), out);
    out.printf(
        "server: shared_buffers=%s synchronous_commit=%s fsync=%s max_connections=%s ssl=%s%n",
        t.server().settings().get("shared_buffers"),
        t.server().settings().get("synchronous_commit"),
        t.server().settings().get("fsync"),
        t.server().settings().get("max_connections"),
        t.server().settings().get("ssl"));
    out.printf("data: %s%n", t.dataset());
  }

  /** How the clients talked to the server, and how many there were. */
  private static void clients(RunPlan p, TrialResult t, PrintStream out) {
    out.printf(
        "query mode: %s (preferQueryMode=%s, prepareThreshold=%d), isolation: %s%n",
        t.client().queryMode(),
        t.client().preferQueryMode(),
        t.client().prepareThreshold(),
        t.client().isolation());
    out.printf(
        "connection: ssl %s (sslmode %s), pgjdbc %s, rtt %s%n",
        t.client().ssl() == null ? "unknown" : t.client().ssl(),
        t.client().sslmode(),
        t.client().pgjdbc(),
        t.client().rttText());
    if (!t.client().sessionSettings().isEmpty()) {
      out.printf("session settings: %s%n", t.client().sessionSettings());
    }
    if (p.pooled()) {
      out.printf(
          "number of clients: %d sharing a pool of %d connections (HikariCP)%n",
          p.clients(), p.poolSize());
    } else if (t.measurement().clientsRan() != null && t.measurement().clientsRan() < p.clients()) {
      // the clients that ran, not the ones asked: the figures below are theirs
      out.printf(
          "number of clients: %d of %d asked (one connection each; %d could not start)%n",
          t.measurement().clientsRan(), p.clients(), p.clients() - t.measurement().clientsRan());
    } else {
      out.printf("number of clients: %d (one connection each)%n", p.clients());
    }
    String threads = threads(t);
    if (threads != null) {
      out.println(threads);
    }
  }

  /** What the clients were asked to do: a rate, a number of ops or a duration. */
  private static void asked(RunPlan p, Measurement m, PrintStream out) {
    if (p.timing().rate() != null) {
      out.printf(
          Locale.ROOT,
          "rate: %.1f ops/s scheduled (Poisson arrivals); latency from the scheduled start%n",
          p.timing().rate());
    }
    if (p.timing().countsOps()) {
      out.printf(
          "number of ops per client: %d (-t: one single-shot iteration, no warmup, %d fork%s)%n",
          p.timing().transactions(), p.timing().forks(), p.timing().forks() == 1 ? "" : "s");
      out.printf(
          "number of ops actually processed: %d/%d%n",
          // as pgbench 15: a failed op is not processed
          m.ops(), p.timing().transactions() * p.clients());
    } else {
      out.printf(
          "duration: %s measured (%d iterations of %s), warmup %s, %d fork%s%n",
          Durations.format(p.timing().duration()),
          p.timing().iterations(),
          Durations.format(p.timing().iterationTime()),
          Durations.format(p.timing().warmup()),
          p.timing().forks(),
          p.timing().forks() == 1 ? "" : "s");
    }
  }

  /** Ops, retries and failures, counted. */
  private static void counts(RunPlan p, Measurement m, PrintStream out) {
    out.printf("number of ops: %d successful, %d failed%n", m.ops(), m.failedOps());
    out.printf(
        "number of retries: %d (%d ops retried; max tries %d)%n",
        m.retries(), m.retriedOps(), p.session().maxTries());
    out.printf("failures by kind: %s%n", m.failures().isEmpty() ? "none" : kinds(m.failures()));
  }

  /** Latency, the schedule's lag, late ops and the wait for a pooled connection. */
  private static void latency(RunPlan p, Measurement m, PrintStream out) {
    Latency l = m.latencyMs();
    out.printf(
        Locale.ROOT,
        "latency (ms): mean %.3f, stddev %.3f, p50 %.3f, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f%n",
        l.mean(),
        l.stddev(),
        l.p50(),
        l.p90(),
        l.p99(),
        l.p999(),
        l.max());
    if (m.scheduleLagMs() != null) {
      out.printf(
          Locale.ROOT,
          "schedule lag (ms): mean %.3f, p99 %.3f, max %.3f%n",
          m.scheduleLagMs().mean(),
          m.scheduleLagMs().p99(),
          m.scheduleLagMs().max());
    }
    if (p.timing().latencyLimit() != null) {
      out.printf(
          "ops above the latency limit of %s: %d late, %d skipped%n",
          Durations.format(p.timing().latencyLimit()), m.lateOps(), m.skippedOps());
    }
    if (m.poolWaitMs() != null) {
      out.printf(
          Locale.ROOT,
          "pool wait (ms): mean %.3f, p50 %.3f, p99 %.3f, max %.3f (included in the latency)%n",
          m.poolWaitMs().mean(),
          m.poolWaitMs().p50(),
          m.poolWaitMs().p99(),
          m.poolWaitMs().max());
    }
  }

  /** Statements, client CPU, connection time and rows. */
  private static void rates(Measurement m, PrintStream out) {
    if (m.statementsPerSecond() == null) {
      // a workload class sends its statements through its own JDBC calls, counted only where
      // the connections' sockets could read the protocol: 0 would be a lie
      out.println(
          "statements/s = not counted (a workload class's own statements, which its connections'"
              + " sockets could not read)");
    } else {
      out.printf(Locale.ROOT, "statements/s = %.1f%n", m.statementsPerSecond());
    }
    if (m.clientCpuMicrosPerOp() != null) {
      out.printf(
          Locale.ROOT,
          "client CPU per op = %.1f us (this JVM, all threads)%n",
          m.clientCpuMicrosPerOp());
    }
    if (m.initialConnectionMs() != null) {
      out.printf(
          Locale.ROOT,
          "initial connection time = %.3f ms (mean per client, connecting together)%n",
          m.initialConnectionMs());
    }
    // with one row per op, rows/s would only repeat the tps
    if (m.rowsPerSecond() != null && Math.abs(m.rowsPerSecond() - m.tps()) > 1e-9) {
      out.printf(Locale.ROOT, "rows/s = %.1f%n", m.rowsPerSecond());
    }
    if (m.clientCpuShare() != null) {
      out.printf(
          Locale.ROOT,
          "client CPU share = %.0f%% of this machine's cores during the measurement%s%n",
          100 * m.clientCpuShare(),
          m.clientCpuShare() > CPU_SHARE_WARNING
              ? " - WARNING: the server runs on this host too, and a client this busy competes"
                  + " with it: the result is bounded by the client"
              : "");
    }
  }

  /** tps, attempted ops and the server's own commit count. */
  private static void throughput(RunPlan p, Measurement m, PrintStream out) {
    out.printf(
        "tps = %s%n",
        tps(
            m,
            "successful ops / "
                + Durations.format(Duration.ofMillis(Math.round(m.measuredSeconds() * 1000)))
                + " measured"));
    out.printf(
        Locale.ROOT, "attempted ops/s = %.1f (failed included)%n", m.attemptedOpsPerSecond());
    if (m.serverCommitsPerSecond() != null && p.timing().countsOps()) {
      Window w = m.windows().get(0);
      out.printf(
          Locale.ROOT,
          "server commits = %d (pg_stat_database.xact_commit from the start to after the clients"
              + " disconnected, so every commit is published; a few are the clients' connection"
              + " set-up and the counter's reads), %.1f/s%n",
          w.serverCommits(),
          m.serverCommitsPerSecond());
    } else if (m.serverCommitsPerSecond() != null) {
      double window = m.measuredSeconds() / Math.max(1, m.windows().size());
      out.printf(
          Locale.ROOT,
          "server commits/s = %.1f (pg_stat_database.xact_commit read at each window's ends;"
              + " backends publish their commits up to 1 s late, so over %s windows it can be off"
              + " by up to %.0f%%)%n",
          m.serverCommitsPerSecond(),
          Durations.format(Duration.ofMillis(Math.round(window * 1000))),
          Math.min(100, 100 / window));
    } else if (!m.windows().isEmpty()) {
      // a figure withheld says so, and why, rather than leaving the line out
      boolean read = m.windows().stream().allMatch(w -> w.serverSeconds() != null);
      out.println(
          read
              ? "server commits/s: not shown (the time between pg_stat_database's reads at a"
                  + " window's ends differed from the window's by more than 10%: the machine was"
                  + " too busy for the counter to bound the window)"
              : "server commits/s: not shown (pg_stat_database could not be read at each"
                  + " window's ends)");
    }
  }

  /** Errors, outages, the data check and clients that stopped. */
  private static void incidents(RunPlan p, TrialResult t, Measurement m, PrintStream out) {
    wholeTrial(t, m, out);
    for (ErrorRecord e : t.errors()) {
      out.printf(
          "error: %s %s x%d (%d retried) in %s, first at %s%s: %s%n",
          e.kind(),
          e.sqlState(),
          e.count(),
          e.retried(),
          e.phase().equals("measurement") ? "the measurement iterations" : e.phase(),
          clock(e.firstAt()),
          e.lastAt() == null || e.count() < 2 ? "" : ", last at " + clock(e.lastAt()),
          e.firstMessage());
    }
    for (Outage o : t.outages()) {
      out.println(outage(o));
    }
    if (t.check() != null) {
      out.println(t.check().summary());
    }
    int notStarted = m.clientsRan() == null ? 0 : Math.max(0, p.clients() - m.clientsRan());
    if (m.notAsAsked() != null && m.stoppedBy() == null) {
      // the run's failure in one line (exit 1): what ran of what was asked, and the server's why
      out.printf("NOT RUN AS ASKED: %s%n", m.notAsAsked());
    }
    if (m.clientsStopped() > notStarted && m.stoppedBy() == null) {
      out.printf(
          "clients stopped: %d of %d, on an error that won't heal (--continue-on-error keeps them"
              + " running): %s%n",
          m.clientsStopped(), p.clients(), m.clientsStoppedBy());
    }
    if (m.stoppedBy() != null) {
      out.printf("STOPPED EARLY: %s%n", m.stoppedBy());
    }
  }

  /**
   * The figures the error and outage lines count in, against the headline's: those lines cover the
   * whole trial (warmup, and the moments between the measured windows, included) and count errors
   * (an op retried has several), where "number of ops" counts ops completed inside the windows. One
   * line names both, so that "25 failed" beside "x28" and outages of 32 failed ops add up.
   */
  private static void wholeTrial(TrialResult t, Measurement m, PrintStream out) {
    long errors = t.errors().stream().mapToLong(ErrorRecord::count).sum();
    long cured = t.errors().stream().mapToLong(ErrorRecord::retried).sum();
    if (m.totalFailedOps() == 0 && errors == 0) {
      return;
    }
    out.printf(
        "over the whole trial: %d failed ops (%d in the measured windows, %d in warmup or between"
            + " them); the error lines count %d errors: the failed ops', %d cured by a retry, and"
            + " any failed reconnect or stall abort%n",
        m.totalFailedOps(), m.failedOps(), m.totalFailedOps() - m.failedOps(), errors, cured);
  }

  /**
   * "connection lost at 12:00:03.120, back at 12:00:05.480 (2.36 s, 8 clients reconnected, 40 ops
   * failed)", in the local time zone.
   */
  public static String outage(Outage o) {
    String failed = o.failedOps() + " op" + (o.failedOps() == 1 ? "" : "s") + " failed";
    if (o.backAt() == null) {
      return String.format(
          Locale.ROOT,
          "connection lost at %s, not back by the end of the run (%d client%s lost, %d"
              + " reconnected, %s)",
          clock(o.lostAt()),
          o.clientsLost(),
          o.clientsLost() == 1 ? "" : "s",
          o.clientsReconnected(),
          failed);
    }
    return String.format(
        Locale.ROOT,
        "connection lost at %s, back at %s (%.2f s, %d client%s reconnected, %s)",
        clock(o.lostAt()),
        clock(o.backAt()),
        o.seconds(),
        o.clientsReconnected(),
        o.clientsReconnected() == 1 ? "" : "s",
        failed);
  }

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

  /** An ISO-8601 instant as local wall-clock time with milliseconds. */
  static String clock(String instant) {
    return instant == null ? "?" : CLOCK.format(Instant.parse(instant));
  }

  /**
   * Above this share of the machine's cores, a client on the server's host takes enough CPU from
   * the server to bound what it measures.
   */
  public static final double CPU_SHARE_WARNING = 0.25;

  /**
   * "1234.5 ± 12.3 (95% CI, batch means: 10 batches of 1 s)", or the value and why it has no
   * interval.
   */
  public static String tps(Measurement m) {
    return tps(m, null);
  }

  /** As {@link #tps(Measurement)}, with {@code extra} added inside the parentheses. */
  static String tps(Measurement m, String extra) {
    // results written before the interval said what it was carry JMH's 99.9% interval
    String method =
        m.tpsInterval() != null
            ? m.tpsInterval()
            : m.tpsError() == null ? "no interval" : "JMH's 99.9% CI over iterations";
    String why = extra == null ? method : method + "; " + extra;
    if (m.tpsError() == null) {
      return String.format(Locale.ROOT, "%.1f (%s)", m.tps(), why);
    }
    return String.format(Locale.ROOT, "%.1f ± %.1f (%s)", m.tps(), m.tpsError(), why);
  }

  private static String kinds(Map<String, Long> f) {
    StringBuilder b = new StringBuilder();
    f.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
    return b.toString();
  }

  /** One line per trial of a sweep: which point, which repeat, what it measured. */
  public static void trialLine(TrialResult t, int total, Set<String> keys, PrintStream out) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "[%d/%d] %s #%d: ",
                t.sequence(),
                total,
                describe(t.point(), keys),
                t.repeat()));
    List<String> figures = new ArrayList<>();
    Column.onConsole(TrialColumns.ALL).forEach(c -> figures.add(c.console(t)));
    out.println(line.append(String.join(", ", figures)));
    ClientThreads c = t.client() == null ? null : t.client().threads();
    if (c != null && c.pinnedAll() != null && c.pinnedAll() > 0) {
      out.println("  " + threads(t));
    }
  }

  /**
   * "clients on virtual threads (Java 25): pinned 12 times while measuring (0.8 ms), 40 in the
   * trial, at SITE; carriers 3 of parallelism 2", or null for platform threads (and results written
   * before the knob).
   */
  static String threads(TrialResult t) {
    ClientThreads c = t.client() == null ? null : t.client().threads();
    if (c == null || c.pinned() == null) {
      return null;
    }
    String head =
        "clients on virtual threads (Java " + c.runtime().replaceFirst("[+-].*", "") + "): ";
    String carriers =
        "carriers " + c.carriersPeak() + " (scheduler parallelism " + c.carrierParallelism() + ")";
    if (c.pinnedAll() == 0) {
      return head + "never pinned to a carrier; " + carriers;
    }
    String site =
        c.pinSites().isEmpty() ? "" : ", mostly at " + c.pinSites().keySet().iterator().next();
    return String.format(
        Locale.ROOT,
        "%spinned %d times while measuring (%.1f ms), %d in the trial%s; %s",
        head,
        c.pinned(),
        c.pinnedMs(),
        c.pinnedAll(),
        site,
        carriers);
  }

  static String describe(Map<String, String> point, Set<String> keys) {
    StringBuilder b = new StringBuilder();
    for (String k : keys) {
      String v = point.get(k);
      if (v != null) {
        b.append(b.length() == 0 ? "" : " ").append(k.equals("target") ? v : k + "=" + v);
      }
    }
    return b.toString();
  }
}
