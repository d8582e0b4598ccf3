package dev.wg1bench.cli;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.SessionKnobs;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.plan.WorkloadKnobs;
import dev.wg1bench.workload.WorkloadRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns parsed options into a {@link Matrix} of validated {@link RunPlan}s: one per combination of
 * the swept values (comma lists), each on every target. Reads script files, nothing else.
 */
final class PlanFactory {
  private PlanFactory() {}

  /** One combination of the sweepable knobs. */
  private record Combo(
      String workload,
      int clients,
      QueryMode mode,
      Isolation isolation,
      Integer poolSize,
      int batchSize,
      Integer prepareThreshold,
      Boolean binaryTransfer,
      Integer fetchSize,
      Map<String, String> settings,
      Integer fillfactor,
      Map<String, String> tableOptions) {}

  static Matrix build(RunOptions o, List<TargetSpec> targets) {
    if (!o.workloads.isEmpty() && !o.scripts.isEmpty()) {
      throw new UsageException("--workload and --script exclude each other; give one of them");
    }
    if (o.workloads.isEmpty() && o.scripts.isEmpty()) {
      throw new UsageException("--workload or --script is required (see 'wg1bench list')");
    }
    List<ScriptSource> custom = new ArrayList<>();
    for (String s : o.scripts) {
      custom.add(readScript(s));
    }
    List<String> workloads = o.workloads.isEmpty() ? List.of("custom") : distinct(o.workloads);
    for (String w : workloads) {
      if (!custom.isEmpty()) {
        break;
      }
      WorkloadRegistry.sources(w); // names an unknown workload with the valid ones
    }
    long seed = o.randomSeed != null ? o.randomSeed : new SecureRandom().nextLong();
    Timing timing =
        new Timing(o.warmup, o.duration, o.iterations, o.forks, o.progress, o.rate, o.latencyLimit);
    List<Combo> combos = combos(o, workloads);
    List<Matrix.Point> points = new ArrayList<>();
    for (Combo c : combos) {
      List<ScriptSource> scripts =
          custom.isEmpty() ? WorkloadRegistry.sources(c.workload()) : custom;
      RunPlan plan =
          new RunPlan(
              c.workload(),
              scripts,
              targets,
              c.clients(),
              c.poolSize(),
              timing,
              new SessionKnobs(
                  c.isolation(),
                  c.mode(),
                  c.settings(),
                  o.maxTries,
                  o.exitOnError,
                  o.continueOnError),
              new DriverKnobs(
                  o.sslmode,
                  c.prepareThreshold(),
                  c.binaryTransfer(),
                  c.fetchSize(),
                  o.rewriteBatchedInserts,
                  o.jdbcProperties),
              new WorkloadKnobs(
                  o.scale, o.defines, c.batchSize(), seed, c.fillfactor(), c.tableOptions()),
              output(o, workloads));
      for (TargetSpec t : targets) {
        points.add(new Matrix.Point(plan, t));
      }
    }
    boolean swept = combos.size() > 1;
    int repeat = o.repeat != null ? o.repeat : swept ? 3 : 1;
    long orderSeed = o.seed != null ? o.seed : new SecureRandom().nextLong();
    return new Matrix(
        points, repeat, order(o.order), orderSeed, between(o.betweenTrials), output(o, workloads));
  }

  private static List<Combo> combos(RunOptions o, List<String> workloads) {
    List<QueryMode> modes =
        o.queryModes.isEmpty() ? List.of(QueryMode.SIMPLE) : distinct(o.queryModes);
    List<Isolation> isolations = o.isolations.isEmpty() ? nullList() : distinct(o.isolations);
    List<Integer> pools = o.poolSizes.isEmpty() ? nullList() : distinct(o.poolSizes);
    List<Integer> thresholds =
        o.prepareThresholds.isEmpty() ? nullList() : distinct(o.prepareThresholds);
    List<Boolean> binaries = o.binaryTransfers.isEmpty() ? nullList() : distinct(o.binaryTransfers);
    List<Integer> fetches = o.fetchSizes.isEmpty() ? nullList() : distinct(o.fetchSizes);
    List<Map<String, String>> settings = settingCombos(o.settings);
    List<Integer> fillfactors = o.fillfactors.isEmpty() ? nullList() : distinct(o.fillfactors);
    List<Map<String, String>> tableOptions = settingCombos(o.tableOptions);
    List<Combo> out = new ArrayList<>();
    for (String w : workloads) {
      for (int c : distinct(o.clients)) {
        for (QueryMode m : modes) {
          for (Isolation i : isolations) {
            for (Integer p : pools) {
              for (int b : distinct(o.batchSizes)) {
                for (Integer t : thresholds) {
                  for (Boolean bin : binaries) {
                    for (Integer f : fetches) {
                      for (Map<String, String> s : settings) {
                        for (Integer ff : fillfactors) {
                          for (Map<String, String> to : tableOptions) {
                            out.add(new Combo(w, c, m, i, p, b, t, bin, f, s, ff, to));
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** --set a=1,2 --set b=x gives {a=1,b=x} and {a=2,b=x}; "\," keeps a literal comma. */
  static List<Map<String, String>> settingCombos(Map<String, String> settings) {
    List<Map<String, String>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (Map.Entry<String, String> e : settings.entrySet()) {
      List<String> values = new ArrayList<>();
      for (String v : e.getValue().split("(?<!\\\\),", -1)) {
        values.add(v.replace("\\,", ","));
      }
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> m : out) {
        for (String v : distinct(values)) {
          Map<String, String> n = new LinkedHashMap<>(m);
          n.put(e.getKey(), v);
          next.add(n);
        }
      }
      out = next;
    }
    return out;
  }

  private static <T> List<T> nullList() {
    List<T> l = new ArrayList<>();
    l.add(null);
    return l;
  }

  private static <T> List<T> distinct(List<T> values) {
    return new ArrayList<>(new java.util.LinkedHashSet<>(values));
  }

  private static Path output(RunOptions o, List<String> workloads) {
    if (o.output != null) {
      return o.output;
    }
    return Path.of(
        "results",
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
            + "-"
            + String.join("+", workloads)
            + ".json");
  }

  static Matrix.Order order(String s) {
    try {
      return Matrix.Order.valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--order '" + s + "' is not one of random, sequential");
    }
  }

  static Matrix.BetweenTrials between(String s) {
    if (s == null) {
      return Matrix.BetweenTrials.AUTO;
    }
    try {
      Matrix.BetweenTrials b = Matrix.BetweenTrials.valueOf(s.trim().toUpperCase(Locale.ROOT));
      if (b != Matrix.BetweenTrials.AUTO) {
        return b;
      }
    } catch (IllegalArgumentException e) {
      // fall through to the message
    }
    throw new UsageException(
        "--between-trials '"
            + s
            + "' is not one of "
            + String.join(", ", Arrays.asList("checkpoint", "vacuum", "reinit", "none")));
  }

  /** FILE or FILE@WEIGHT, as pgbench -f; the weight is split at the last '@'. */
  static ScriptSource readScript(String spec) {
    String file = spec;
    int weight = 1;
    int at = spec.lastIndexOf('@');
    if (at > 0 && spec.substring(at + 1).matches("\\d+")) {
      file = spec.substring(0, at);
      try {
        weight = Integer.parseInt(spec.substring(at + 1));
      } catch (NumberFormatException e) {
        throw new UsageException(
            "--script " + spec + ": weight must be an integer from 0 to " + Integer.MAX_VALUE);
      }
    } else if (at > 0 && !Files.exists(Path.of(spec))) {
      throw new UsageException(
          "--script "
              + spec
              + ": weight '"
              + spec.substring(at + 1)
              + "' is not a non-negative integer");
    }
    Path p = Path.of(file);
    if (!Files.isRegularFile(p)) {
      throw new UsageException("--script " + file + ": no such file");
    }
    try {
      return new ScriptSource(
          p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8), weight);
    } catch (IOException e) {
      throw new UsageException("--script " + file + ": cannot read it (" + e.getMessage() + ")");
    }
  }
}
