package dev.wg1bench.run;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunPlan;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** The labels of a point: what names a trial on the console and groups trials in reports. */
final class PointLabels {
  private PointLabels() {}

  /** Point keys whose values differ between points: what the console names for each trial. */
  static Set<String> varying(Matrix m) {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    for (Matrix.Point p : m.points()) {
      of(p, p.plan().session().isolation())
          .forEach((k, v) -> values.computeIfAbsent(k, x -> new HashSet<>()).add(v));
    }
    Set<String> out = new LinkedHashSet<>();
    out.add("target");
    values.forEach(
        (k, v) -> {
          if (v.size() > 1) {
            out.add(k);
          }
        });
    return out;
  }

  /**
   * The knob values that identify a trial, so reports can plot and group trials by any of them: the
   * point's own labels (advice, arm), the target, then every declared knob the plan sets.
   */
  static Map<String, String> of(Matrix.Point mp, Isolation isolation) {
    RunPlan plan = mp.plan();
    Map<String, String> p = new LinkedHashMap<>(mp.labels());
    p.put("target", mp.target().name());
    for (Knob<?> k : Knobs.ALL) {
      p.putAll(k.labels(plan));
    }
    // the level in effect: the workload's own when the plan sets none
    p.put(Knobs.ISOLATION.key(), isolation == null ? "default" : isolation.cliName());
    return p;
  }
}
