package dev.wg1bench.cli;

import dev.wg1bench.plan.DriverKnobs;
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
import java.util.List;

/** Turns parsed options into a {@link RunPlan}; reads script files, nothing else. */
final class PlanFactory {
  private PlanFactory() {}

  static RunPlan build(RunOptions o, List<TargetSpec> targets) {
    if (o.workload != null && !o.scripts.isEmpty()) {
      throw new UsageException("--workload and --script exclude each other; give one of them");
    }
    String name;
    List<ScriptSource> scripts;
    if (o.workload != null) {
      name = o.workload;
      scripts = WorkloadRegistry.sources(o.workload);
    } else if (!o.scripts.isEmpty()) {
      scripts = new ArrayList<>();
      for (String s : o.scripts) {
        scripts.add(readScript(s));
      }
      name = "custom";
    } else {
      throw new UsageException("--workload or --script is required (see 'wg1bench list')");
    }
    Path output =
        o.output != null
            ? o.output
            : Path.of(
                "results",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                    + "-"
                    + name
                    + ".json");
    long seed = o.randomSeed != null ? o.randomSeed : new SecureRandom().nextLong();
    return new RunPlan(
        name,
        scripts,
        targets,
        o.clients,
        o.poolSize,
        new Timing(o.warmup, o.duration, o.iterations, o.forks, o.progress, o.rate, o.latencyLimit),
        new SessionKnobs(o.isolation, o.queryMode, o.settings, o.maxTries, o.exitOnError),
        new DriverKnobs(
            o.sslmode,
            o.prepareThreshold,
            o.binaryTransfer,
            o.fetchSize,
            o.rewriteBatchedInserts,
            o.jdbcProperties),
        new WorkloadKnobs(o.scale, o.defines, o.batchSize, seed),
        output);
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
