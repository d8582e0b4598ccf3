package dev.wg1bench.run;

import dev.wg1bench.plan.Isolation;
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
   * The knob values that identify a trial, so reports can plot and group trials by any of them:
   * target, workload, clients, query mode, isolation, and whatever else the plan set.
   */
  static Map<String, String> of(Matrix.Point mp, Isolation isolation) {
    RunPlan plan = mp.plan();
    Map<String, String> p = new LinkedHashMap<>(mp.labels());
    p.put("target", mp.target().name());
    p.put("workload", plan.workload());
    p.put("clients", Integer.toString(plan.clients()));
    p.put("queryMode", plan.session().queryMode().cliName());
    p.put("isolation", isolation == null ? "default" : isolation.cliName());
    if (plan.poolSize() != null) {
      p.put("poolSize", plan.poolSize().toString());
    }
    if (plan.timing().rate() != null) {
      p.put("rate", plan.timing().rate().toString());
    }
    plan.session().settings().forEach((k, v) -> p.put("set." + k, v));
    if (plan.params().fillfactor() != null) {
      p.put("fillfactor", plan.params().fillfactor().toString());
    }
    plan.params().tableOptions().forEach((k, v) -> p.put("table." + k, v));
    var d = plan.driver();
    if (d.prepareThreshold() != null) {
      p.put("prepareThreshold", d.prepareThreshold().toString());
    }
    if (d.binaryTransfer() != null) {
      p.put("binaryTransfer", d.binaryTransfer().toString());
    }
    if (d.fetchSize() != null) {
      p.put("fetchSize", d.fetchSize().toString());
    }
    if (d.rewriteBatchedInserts()) {
      p.put("rewriteBatchedInserts", "true");
    }
    if (d.sslmode() != null) {
      p.put("sslmode", d.sslmode());
    }
    d.properties().forEach((k, v) -> p.put("jdbc." + k, v));
    return p;
  }
}
