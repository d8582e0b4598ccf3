package dev.wg1bench.jmh;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.json.Histograms;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.workload.ClientSession;
import dev.wg1bench.workload.ErrorSamples;
import dev.wg1bench.workload.FailureKind;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one fork measured, as its clients hand it in: each client's iteration is folded in at its
 * end ({@link #absorb}), set-up errors and connection outages as they happen, and the whole is
 * written once as the fork's {@link ForkReport}. One lock, taken at iteration boundaries and on
 * errors, never on a successful op's path.
 */
final class ForkTally {
  private final Histogram measuredPoolWait = new Histogram(3);
  private final Histogram measuredLag = new Histogram(3);
  private final ForkReport report = new ForkReport();

  /**
   * The clients' scripts, whose names key their counts' parts; null when none counts per script.
   */
  private List<ScriptOutline> outline;

  private boolean commands;
  private boolean steps;
  private final Map<String, ForkReport.ErrorEntry> errors = new LinkedHashMap<>();
  final Outages outages = new Outages();

  /** A client is reading its session's TLS for the report; see {@link #claimClientInfo()}. */
  private boolean clientInfoClaimed;

  /** Clients whose set-up ran on a virtual thread, and on a platform one. */
  private int virtualClients;

  private int platformClients;

  /** A client's set-up runs on the thread JMH gave it: the kind the trial really ran on. */
  synchronized void clientThread(Thread t) {
    if (ClientExecutor.isVirtual(t)) {
      virtualClients++;
    } else {
      platformClients++;
    }
  }

  /**
   * Folds a client's iteration into the fork's counts: the ops of the window it ran in when it is a
   * measurement iteration, and all of them into the whole trial's totals.
   */
  synchronized void absorb(Client c, boolean measurement, MeasurementWindow.Span span, boolean t) {
    c.flushLatency();
    if (measurement && span != null) {
      measuredPoolWait.add(c.poolWait);
      measuredLag.add(c.lag);
      ForkReport.Window w = span.record;
      w.counts.add(c.window);
      if (c.okPerSecond.length > w.okPerSecond.length && t) {
        w.okPerSecond = Arrays.copyOf(w.okPerSecond, c.okPerSecond.length);
      }
      for (int i = 0; i < c.okPerSecond.length && i < w.okPerSecond.length; i++) {
        w.okPerSecond[i] += c.okPerSecond[i];
      }
      report.measured.add(c.window);
      if (c.scriptParts != null && outline == null) {
        outline = c.session.outline();
        commands = c.session.opParts() == ClientSession.OpParts.COMMANDS;
        steps = c.session.opParts() == ClientSession.OpParts.STEPS;
      }
    }
    report.whole.add(c.all);
    String phase = measurement ? "measurement" : "warmup";
    for (ErrorSamples.ErrorSample e : c.errors.samples().values()) {
      String key = phase + "/" + e.kind + "/" + e.sqlState;
      ForkReport.ErrorEntry x = errors.get(key);
      if (x == null) {
        x = new ForkReport.ErrorEntry();
        x.kind = e.kind;
        x.sqlState = e.sqlState;
        x.firstMessage = e.firstMessage;
        x.firstAtEpochMs = e.firstAtEpochMs;
        x.phase = phase;
        errors.put(key, x);
      }
      x.lastAtEpochMs = Math.max(x.lastAtEpochMs, e.lastAtEpochMs);
      x.count += e.count;
      x.retried += e.retried;
    }
  }

  /** An error of a client's (or the trial's) set-up, kept by kind in phase "setup". */
  synchronized void setupError(FailureKind kind, Throwable e) {
    String state = e instanceof SQLException q ? q.getSQLState() : null;
    String key = "setup/" + kind.label() + "/" + state;
    ForkReport.ErrorEntry x = errors.get(key);
    long now = System.currentTimeMillis();
    if (x == null) {
      x = new ForkReport.ErrorEntry();
      x.kind = kind.label();
      x.sqlState = state;
      x.firstMessage = ConnectionFactory.oneLine(e);
      x.firstAtEpochMs = now;
      x.phase = "setup";
      errors.put(key, x);
    }
    x.lastAtEpochMs = now;
    x.count++;
  }

  synchronized void connected(long nanos) {
    report.connectNanos += nanos;
    report.connects++;
  }

  /**
   * Whether this client is the one to read its session's TLS for the report: one client, not every
   * client that connects before the first answer, so the tool's own commits on the server are the
   * same number in every run (a race decided it; runs of 4 clients differed by one commit).
   */
  synchronized boolean claimClientInfo() {
    if (clientInfoClaimed) {
      return false;
    }
    clientInfoClaimed = true;
    return true;
  }

  /**
   * What the claiming client read of its session as it opened it (see ConnectionFactory.Opened);
   * {@code null} when it could not open one, and the next client to connect reads it instead.
   */
  synchronized void clientInfo(ConnectionFactory.Opened o) {
    if (o == null) {
      clientInfoClaimed = false;
      return;
    }
    report.clientSsl = o.ssl();
    report.clientSslRefused = null;
    report.clientSettings.putAll(o.settings());
  }

  /**
   * The server refused the session opened to read the TLS: the result says so and why, rather than
   * nothing. A later client that reads it replaces the reason.
   */
  synchronized void clientInfoRefused(SQLException e) {
    if (report.clientSsl == null) {
      report.clientSslRefused = e.getSQLState() + ": " + ConnectionFactory.oneLine(e);
    }
  }

  /** The first reason the run stopped early wins; false when one was set already. */
  synchronized boolean stoppedBy(String why) {
    if (report.stoppedBy != null) {
      return false;
    }
    report.stoppedBy = why;
    return true;
  }

  /** Every client stopped: the reason, whatever stopped the run before. */
  synchronized void allStoppedBy(String why) {
    report.stoppedBy = why;
  }

  /**
   * Names the counts' parts: the scripts in order, with their commands under -r, or the one class
   * whose parts are its steps; a step that ran only outside the windows (in warmup) gets its empty
   * part among the measured ones, after those that ran in them, so that every step the data shows
   * is listed. A workload class whose ops name no steps has no parts to name.
   */
  private void scripts() {
    if (outline == null) {
      return;
    }
    String[] keys = ScriptOutline.keys(outline);
    if (!commands && steps) {
      OpCounts measuredSteps = report.measured.partOrEmpty(keys[0]);
      if (measuredSteps.parts.isEmpty()) {
        return;
      }
      report.whole.partOrEmpty(keys[0]).parts.keySet().forEach(measuredSteps::part);
    }
    report.steps = steps && !commands;
    report.scripts = new ArrayList<>();
    for (ScriptOutline o : outline) {
      report.scripts.add(
          new ForkReport.Script(o.name(), o.weight(), commands ? o.commands() : null));
    }
  }

  /**
   * Writes the fork's report into the trial directory, once the windows are final.
   *
   * @param pooled whether pool waits were measured
   * @param rated whether schedule lag was measured (--rate)
   */
  synchronized void write(
      Path dir,
      MeasurementWindow window,
      boolean pooled,
      boolean rated,
      ClientStops stops,
      PinWatch pins) {
    report.windows = window.finish();
    report.measuredNanos = 0;
    report.measuredCpuNanos = 0;
    for (ForkReport.Window w : report.windows) {
      int bins = MeasurementWindow.bins(w.nanos);
      if (w.okPerSecond.length != bins) {
        // a -t window: its length was known only when its last client finished
        w.okPerSecond = Arrays.copyOf(w.okPerSecond, bins);
      }
      report.measuredNanos += w.nanos;
      report.measuredCpuNanos += w.cpuNanos;
    }
    report.cores = Runtime.getRuntime().availableProcessors();
    if (report.measured.histogram == null) {
      // no client was measured: an empty histogram, as one that counted nothing
      report.measured.histogram = new Histogram(3);
    }
    report.poolWaitHistogram = pooled ? Histograms.encode(measuredPoolWait) : null;
    report.lagHistogram = rated ? Histograms.encode(measuredLag) : null;
    report.errors = new ArrayList<>(errors.values());
    report.clientsStopped = stops.stopped();
    report.clientsStoppedBy = stops.firstReason();
    report.clientsRan = stops.started();
    report.notAsAsked = stops.notAsAsked();
    report.outages = outages.all();
    scripts();
    report.threads =
        virtualClients > 0 && platformClients > 0
            ? "mixed"
            : virtualClients > 0 ? "virtual" : "platform";
    if (pins != null) {
      pins.finish(report);
    }
    Path f =
        dir.resolve("fork-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".json");
    try {
      Path tmp = Files.createTempFile(dir, "fork", ".tmp");
      TrialSpec.JSON.writeValue(tmp.toFile(), report);
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
