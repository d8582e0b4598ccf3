package dev.wg1bench.report;

import dev.wg1bench.result.PerOp;
import dev.wg1bench.result.Prediction;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * What one op took, on the console after the latency lines: round trips, statements, rows, bytes
 * and the server's time per op (result.PerOp); a figure that is unknown is named with why, never
 * printed as 0.
 */
final class PerOpConsole {
  private PerOpConsole() {}

  static void print(PerOp p, PrintStream out) {
    if (p == null) {
      return;
    }
    StringBuilder line = new StringBuilder("per op:");
    figure(line, p.roundTrips(), "%.2f round trips");
    figure(
        line,
        p.statements(),
        "%.2f statements (" + (PerOp.SENT.equals(p.statementsFrom()) ? "sent" : "completed") + ")");
    figure(line, p.rows(), "%.2f rows returned");
    figure(line, p.bytesSent(), "%.0f B sent");
    figure(line, p.bytesReceived(), "%.0f B received");
    figure(line, p.serverMs(), "%.3f ms on the server");
    if (line.length() > "per op:".length()) {
      out.println(line);
    }
    if (p.notCounted() != null) {
      out.println("per op, not counted: " + p.notCounted());
    }
  }

  /** The mean latency and throughput predicted at other round-trip times, one line. */
  static void prediction(List<Prediction> ps, PrintStream out) {
    if (ps == null || ps.isEmpty()) {
      return;
    }
    StringBuilder line =
        new StringBuilder(
            "predicted at other round-trip times (server time and the rest kept, round trips"
                + " times the RTT changed; not for lock-bound ops):");
    for (Prediction p : ps) {
      line.append(
          String.format(
              Locale.ROOT,
              " rtt %s ms: mean %.3f ms%s;",
              p.rttMs(),
              p.latencyMeanMs(),
              p.tps() == null ? "" : String.format(Locale.ROOT, ", %.1f tps", p.tps())));
    }
    line.setLength(line.length() - 1);
    out.println(line);
  }

  private static void figure(StringBuilder line, Double v, String format) {
    if (v == null) {
      return;
    }
    line.append(line.length() > "per op:".length() ? ", " : " ");
    line.append(String.format(Locale.ROOT, format, v));
  }
}
