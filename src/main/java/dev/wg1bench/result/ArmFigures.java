package dev.wg1bench.result;

import dev.wg1bench.server.window.ServerSide;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One arm of a comparison per op (the median over its trials of each trial's {@code perOp}, and its
 * clients' wait profile over all its trials' samples), and the one line that says how two arms
 * differ: what every comparison ({@code advise}, {@code diff}, the Java API's compare, {@code
 * history report}) prints under its verdict as the mechanism. A figure no trial of the arm counted
 * is null: "not counted", never 0.
 *
 * @param roundTrips round trips per op
 * @param statements statements per op
 * @param serverMs the server's execution and planning time per op, in ms
 * @param rows rows returned per op
 * @param bytesSent bytes the client sent per op
 * @param bytesReceived bytes the client received per op
 * @param waits the clients' sessions' states as shares of their sampled time, largest first; null
 *     where no trial sampled them
 */
public record ArmFigures(
    Double roundTrips,
    Double statements,
    Double serverMs,
    Double rows,
    Double bytesSent,
    Double bytesReceived,
    List<Wait> waits) {

  /** The share a wait state's difference is measured from (see {@code Pair.size}). */
  static final double SHARE_FLOOR = 0.05;

  /** Differences the mechanism line names at most. */
  static final int NAMED = 3;

  /** A state of the clients' sessions and its share of their sampled time. */
  public record Wait(String name, double share) {}

  /** An arm of no figure: every one not counted. */
  public static final ArmFigures NONE = new ArmFigures(null, null, null, null, null, null, null);

  /** The arm's figures over {@code trials} (those without a measurement are left out). */
  public static ArmFigures of(List<TrialResult> trials) {
    List<Measurement> ms =
        trials.stream().map(TrialResult::measurement).filter(m -> m != null).toList();
    return new ArmFigures(
        median(ms, PerOp::roundTrips),
        median(ms, PerOp::statements),
        median(ms, PerOp::serverMs),
        median(ms, PerOp::rows),
        median(ms, PerOp::bytesSent),
        median(ms, PerOp::bytesReceived),
        waits(ms));
  }

  /** The median of a per-op figure over the trials that counted it; null where none did. */
  private static Double median(List<Measurement> ms, Function<PerOp, Double> figure) {
    double[] v =
        ms.stream()
            .map(Measurement::perOp)
            .filter(p -> p != null && figure.apply(p) != null)
            .mapToDouble(p -> figure.apply(p))
            .toArray();
    return v.length == 0 ? null : Summaries.median(v);
  }

  /** Each state's samples over all the trials' samples: a trial weighs as much as it sampled. */
  private static List<Wait> waits(List<Measurement> ms) {
    Map<String, Double> samples = new HashMap<>();
    double total = 0;
    for (Measurement m : ms) {
      ServerSide s = m.serverSide();
      if (s == null || s.waits() == null) {
        continue;
      }
      for (ServerSide.WaitShare w : s.waits()) {
        samples.merge(w.name(), (double) w.samples(), Double::sum);
        total += w.samples();
      }
    }
    if (total == 0) {
      return null;
    }
    double all = total;
    return samples.entrySet().stream()
        .map(e -> new Wait(e.getKey(), e.getValue() / all))
        .sorted(Comparator.comparingDouble(Wait::share).reversed().thenComparing(Wait::name))
        .toList();
  }

  /** One figure of both arms, by its name in the line. */
  private record Pair(String name, Double a, Double b, boolean percent) {
    String text(Double v) {
      if (v == null) {
        return "not counted";
      }
      return percent ? String.format(Locale.ROOT, "%.0f%%", 100 * v) : figure(v);
    }

    /**
     * max/min of the two, infinite when one is 0 and the other not; 1 when they print alike. A
     * share counts from {@link #SHARE_FLOOR}: a state sampled 0% of the time in one arm and 2% in
     * the other is within the sampling's noise, not an infinite difference.
     */
    double size() {
      if (text(a).equals(text(b))) {
        return 1;
      }
      double floor = percent ? SHARE_FLOOR : 0;
      double lo = Math.max(floor, Math.min(a, b));
      double hi = Math.max(floor, Math.max(a, b));
      return lo <= 0 ? Double.POSITIVE_INFINITY : hi / lo;
    }

    String line() {
      return name + " " + text(a) + " -> " + text(b);
    }
  }

  /**
   * How {@code b} differs from {@code a} per op, in one line: the {@value #NAMED} largest
   * differences by relative size ({@code why: round trips per op 10.0 -> 1.0; server ms per op 0.19
   * -> 0.17; Client:ClientRead 71% -> 18%}), then a figure one arm counted and the other did not,
   * then the figures neither counted; "no difference" when every counted figure prints alike.
   */
  public static String mechanism(ArmFigures a, ArmFigures b) {
    a = a == null ? NONE : a;
    b = b == null ? NONE : b;
    List<Pair> known = new ArrayList<>();
    List<Pair> oneSided = new ArrayList<>();
    List<String> neither = new ArrayList<>();
    for (Pair p : pairs(a, b)) {
      if (p.a() != null && p.b() != null) {
        known.add(p);
      } else if (p.a() != null || p.b() != null) {
        oneSided.add(p);
      } else {
        neither.add(p.name());
      }
    }
    if (a.waits() == null && b.waits() == null) {
      neither.add("waits");
    }
    List<Pair> differ =
        known.stream()
            .filter(p -> p.size() > 1)
            .sorted(Comparator.comparingDouble(Pair::size).reversed())
            .limit(NAMED)
            .toList();
    List<String> parts = new ArrayList<>();
    if (differ.isEmpty() && !known.isEmpty()) {
      parts.add(
          "no difference per op ("
              + String.join(
                  ", ",
                  known.stream().limit(NAMED).map(p -> p.name() + " " + p.text(p.a())).toList())
              + ")");
    }
    differ.forEach(p -> parts.add(p.line()));
    oneSided.forEach(p -> parts.add(p.line()));
    if (!neither.isEmpty()) {
      parts.add("not counted: " + String.join(", ", neither));
    }
    return "why: " + String.join("; ", parts);
  }

  /** The figures of both arms in the line's order; waits: the top states of either arm. */
  private static List<Pair> pairs(ArmFigures a, ArmFigures b) {
    List<Pair> out = new ArrayList<>();
    out.add(new Pair("round trips per op", a.roundTrips(), b.roundTrips(), false));
    out.add(new Pair("statements per op", a.statements(), b.statements(), false));
    out.add(new Pair("server ms per op", a.serverMs(), b.serverMs(), false));
    out.add(new Pair("rows per op", a.rows(), b.rows(), false));
    out.add(new Pair("bytes sent per op", a.bytesSent(), b.bytesSent(), false));
    out.add(new Pair("bytes received per op", a.bytesReceived(), b.bytesReceived(), false));
    if (a.waits() != null || b.waits() != null) {
      // against an arm that sampled none, its largest state says it: the rest would too
      int shown = a.waits() != null && b.waits() != null ? NAMED : 1;
      Set<String> names = new LinkedHashSet<>();
      top(a.waits(), shown).forEach(names::add);
      top(b.waits(), shown).forEach(names::add);
      for (String n : names) {
        out.add(new Pair(n, share(a.waits(), n), share(b.waits(), n), true));
      }
    }
    return out;
  }

  private static List<String> top(List<Wait> ws, int n) {
    return ws == null ? List.of() : ws.stream().limit(n).map(Wait::name).toList();
  }

  /** A state's share in an arm that sampled (0 where no sample found it), null where none did. */
  private static Double share(List<Wait> ws, String name) {
    if (ws == null) {
      return null;
    }
    return ws.stream().filter(w -> w.name().equals(name)).mapToDouble(Wait::share).sum();
  }

  /**
   * A per-op figure as the line prints it: one decimal from 1 up (10.0, 1.0: counts read as
   * counts), two below (0.19 ms), three significant digits below 0.01, none from 1000 up (bytes).
   */
  public static String figure(double v) {
    double x = Math.abs(v);
    if (x >= 1000) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (x >= 1 || x == 0) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    if (x >= 0.01) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
