package dev.wg1bench.advise;

import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.RttSweepRow;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code advise --rtt 0,0.5ms,2ms}: each claim asked again at each round-trip time. Each (claim,
 * RTT) is a claim of its own in the run (its arms both carry {@code --rtt}, its blocks and Holm's
 * adjustment are its own, named {@code NAME@RTT}); this puts them back side by side per claim and
 * says where, going from one RTT to the next, the verdict flips or the ratio leaves the interval
 * measured at the shorter RTT: a verdict measured over loopback is a verdict about loopback, and
 * the app-side claims are claims about round trips.
 */
public final class RttSweep {
  private RttSweep() {}

  /** The claim whose arms both run at {@code rtt} (as --rtt writes it), named NAME@RTT. */
  public static Advice at(Advice a, String rtt) {
    return Advice.claim(a.name() + "@" + rtt, a.claim())
        .seed(a.seed())
        .expect(a.expect())
        .metric(a.metric())
        .common((a.common() + " --rtt " + rtt).trim())
        .arms(a.baseline(), a.treatment())
        .java(a.java())
        .build();
  }

  /** The results of the NAME@RTT claims, one row per claim and target, RTTs in --rtt's order. */
  public static List<RttSweepRow> rows(List<String> rtts, List<AdviceResult> results) {
    Map<String, Map<String, AdviceResult>> byClaim = new LinkedHashMap<>();
    for (AdviceResult r : results) {
      int at = r.name().lastIndexOf('@');
      if (at < 0) {
        continue; // --aa's calibration claim runs once, at the path as it is
      }
      String key = r.name().substring(0, at) + "\n" + r.target();
      byClaim.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(r.name().substring(at + 1), r);
    }
    List<RttSweepRow> rows = new ArrayList<>();
    byClaim.forEach(
        (key, atRtt) -> {
          List<RttSweepRow.Cell> cells = new ArrayList<>();
          for (String rtt : rtts) {
            AdviceResult r = atRtt.get(rtt);
            cells.add(
                r == null
                    ? new RttSweepRow.Cell(rtt, null, null, null, null)
                    : new RttSweepRow.Cell(rtt, r.verdict(), r.ratio(), r.ciLow(), r.ciHigh()));
          }
          String[] k = key.split("\n", 2);
          rows.add(new RttSweepRow(k[0], k[1], cells, changes(cells)));
        });
    return rows;
  }

  /**
   * Between each RTT and the next: a verdict that differs, and a ratio outside the 95% interval
   * measured at the shorter RTT, as the effect growing (further from 1) or shrinking. The interval
   * of the shorter RTT is the yardstick: a move within it is what that measurement could not tell
   * apart from no move.
   */
  public static List<String> changes(List<RttSweepRow.Cell> cells) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i < cells.size(); i++) {
      RttSweepRow.Cell a = cells.get(i - 1);
      RttSweepRow.Cell b = cells.get(i);
      if (a.verdict() != null && b.verdict() != null && !a.verdict().equals(b.verdict())) {
        out.add(
            String.format(
                "verdict flips from %s at rtt %s to %s at rtt %s",
                a.verdict(), a.rtt(), b.verdict(), b.rtt()));
      }
      if (a.ratio() == null || a.ciLow() == null || a.ciHigh() == null || b.ratio() == null) {
        continue;
      }
      if (b.ratio() >= a.ciLow() && b.ratio() <= a.ciHigh()) {
        continue;
      }
      boolean grows = Math.abs(Math.log(b.ratio())) > Math.abs(Math.log(a.ratio()));
      out.add(
          String.format(
              Locale.ROOT,
              "effect %s from %.3f [%.3f, %.3f] at rtt %s to %.3f at rtt %s, beyond its interval",
              grows ? "grows" : "shrinks",
              a.ratio(),
              a.ciLow(),
              a.ciHigh(),
              a.rtt(),
              b.ratio(),
              b.rtt()));
    }
    return out;
  }

  /** The rows as a table: a claim per line, its ratio and verdict per RTT, then its changes. */
  public static void print(PrintStream out, List<String> rtts, List<RttSweepRow> rows) {
    out.println();
    out.println("per round-trip time (ratio treatment / baseline, 95% CI, verdict):");
    for (RttSweepRow r : rows) {
      out.printf("%s (%s)%n", r.advice(), r.target());
      for (RttSweepRow.Cell c : r.byRtt()) {
        out.printf(
            Locale.ROOT,
            "  rtt %-8s %7s %18s  %s%n",
            c.rtt(),
            c.ratio() == null ? "-" : String.format(Locale.ROOT, "%.3f", c.ratio()),
            c.ciLow() == null
                ? "-"
                : String.format(Locale.ROOT, "[%.3f, %.3f]", c.ciLow(), c.ciHigh()),
            c.verdict() == null ? "not measured" : c.verdict());
      }
      if (r.changes().isEmpty()) {
        out.printf("  same verdict at every rtt %s, no move beyond an interval%n", rtts);
      }
      r.changes().forEach(s -> out.println("  " + s));
    }
  }
}
