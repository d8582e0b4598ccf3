package dev.wg1bench.report;

import dev.wg1bench.result.ArmFigures;
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
public final class PerOpConsole {
  private PerOpConsole() {}

  /**
   * Two arms per op side by side, then the line naming how they differ ({@link
   * ArmFigures#mechanism}), each line indented by {@code indent}: what every comparison prints
   * under its verdict. A figure an arm did not count is "not counted", never 0.
   */
  public static String arms(
      String indent, String aName, ArmFigures a, String bName, ArmFigures b, String mechanism) {
    a = a == null ? ArmFigures.NONE : a;
    b = b == null ? ArmFigures.NONE : b;
    int w = Math.max(12, Math.max(aName.length(), bName.length()));
    String row = indent + "%-22s %" + w + "s %" + w + "s%n";
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, row, "per op", aName, bName));
    side(out, row, "round trips", a.roundTrips(), b.roundTrips());
    side(out, row, "statements", a.statements(), b.statements());
    side(out, row, "server ms", a.serverMs(), b.serverMs());
    side(out, row, "rows", a.rows(), b.rows());
    side(out, row, "bytes sent", a.bytesSent(), b.bytesSent());
    side(out, row, "bytes received", a.bytesReceived(), b.bytesReceived());
    out.append(indent)
        .append("waits: ")
        .append(aName)
        .append(' ')
        .append(waits(a))
        .append("; ")
        .append(bName)
        .append(' ')
        .append(waits(b))
        .append(System.lineSeparator());
    out.append(indent).append(mechanism).append(System.lineSeparator());
    return out.toString();
  }

  private static void side(StringBuilder out, String row, String name, Double a, Double b) {
    out.append(String.format(Locale.ROOT, row, name, perOp(a), perOp(b)));
  }

  /** A per-op figure as the comparisons print it, "not counted" where unknown. */
  public static String perOp(Double v) {
    return v == null ? "not counted" : ArmFigures.figure(v);
  }

  /** An arm's top wait states with their shares, "not counted" where none was sampled. */
  public static String waits(ArmFigures a) {
    if (a.waits() == null) {
      return "not counted";
    }
    StringBuilder b = new StringBuilder();
    for (ArmFigures.Wait x : a.waits().stream().limit(TOP_WAITS).toList()) {
      b.append(b.length() == 0 ? "" : ", ")
          .append(x.name())
          .append(String.format(Locale.ROOT, " %.0f%%", 100 * x.share()));
    }
    return b.toString();
  }

  /** Wait states an arm shows beside the other: the rest are in each trial's serverSide. */
  static final int TOP_WAITS = 3;

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
