package dev.wg1bench.cli;

import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.TxLogSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.workload.WorkloadRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * pgbench's own flags read with pgbench's meaning: the script mix of {@code -f}, {@code -b}, {@code
 * -S} and {@code -N} in command-line order (script numbers in the log follow it, as pgbench's do),
 * and the {@code -l} options.
 */
final class PgbenchFlags {
  private PgbenchFlags() {}

  /** pgbench's built-in script names and the workloads that are the same scripts. */
  static final Map<String, String> BUILTINS = new LinkedHashMap<>();

  static {
    BUILTINS.put("tpcb-like", "tpcb");
    BUILTINS.put("simple-update", "simple_update");
    BUILTINS.put("select-only", "select_only");
  }

  /** One script of the mix: a built-in workload's name, or a file's source. */
  record Entry(String workload, ScriptSource source) {}

  /** The workload a built-in name or unique prefix of one names, as pgbench's findBuiltin. */
  static String builtin(String name) {
    List<String> found = new ArrayList<>();
    for (String b : BUILTINS.keySet()) {
      if (b.startsWith(name) && !name.isEmpty()) {
        found.add(b);
      }
    }
    if (found.size() == 1) {
      return BUILTINS.get(found.get(0));
    }
    throw new UsageException(
        "-b '"
            + name
            + "' "
            + (found.isEmpty()
                ? "is not a pgbench built-in script"
                : "is ambiguous: it begins " + String.join(" and ", found))
            + "; valid: "
            + String.join(", ", BUILTINS.keySet())
            + " (or a prefix of one)");
  }

  /** NAME[@WEIGHT] of -b: the workload and the weight (1 when not given). */
  static Entry builtinEntry(String spec) {
    String name = spec;
    int weight = 1;
    int at = spec.lastIndexOf('@');
    if (at >= 0) {
      name = spec.substring(0, at);
      String w = spec.substring(at + 1);
      try {
        weight = Integer.parseInt(w);
      } catch (NumberFormatException e) {
        weight = -1;
      }
      if (weight < 0) {
        throw new UsageException(
            "-b " + spec + ": weight '" + w + "' is not an integer from 0 to " + Integer.MAX_VALUE);
      }
    }
    String workload = builtin(name);
    ScriptSource s = WorkloadRegistry.sources(workload).get(0);
    return new Entry(workload, new ScriptSource(s.name(), s.text(), weight, s.label()));
  }

  /**
   * The mix of -f, -b, -S and -N in the order they were given. picocli keeps each option's values
   * apart, so the order comes from the parse result when there is one (a RunOptions built in code
   * has none: files first, then built-ins).
   */
  static List<Entry> mix(RunOptions o) {
    List<Entry> out = new ArrayList<>();
    ParseResult pr = o.parseResult();
    if (pr == null) {
      o.scripts.forEach(s -> out.add(new Entry(null, PlanFactory.readScript(s))));
      o.builtins.forEach(b -> out.add(builtinEntry(b)));
      if (o.selectOnly) {
        out.add(builtinEntry("select-only"));
      }
      if (o.simpleUpdate) {
        out.add(builtinEntry("simple-update"));
      }
      return out;
    }
    int f = 0;
    int b = 0;
    for (ArgSpec a : pr.matchedArgs()) {
      if (!(a instanceof OptionSpec opt)) {
        continue;
      }
      switch (opt.longestName()) {
        case "--script" -> out.add(new Entry(null, PlanFactory.readScript(o.scripts.get(f++))));
        case "--builtin" -> out.add(builtinEntry(o.builtins.get(b++)));
        case "-S" -> out.add(builtinEntry("select-only"));
        case "-N" -> out.add(builtinEntry("simple-update"));
        default -> {
          // not a script option
        }
      }
    }
    return out;
  }

  /** The flag that chose a built-in, for messages: the first of -S, -N, -b given. */
  static String builtinFlag(RunOptions o) {
    return o.selectOnly ? "-S" : o.simpleUpdate ? "-N" : "-b";
  }

  /** -l and its companions as pgbench checks them; null without -l. */
  static TxLogSpec log(RunOptions o) {
    if (!o.log) {
      for (var e :
          Map.of(
                  "--aggregate-interval", o.aggregateInterval != null,
                  "--log-prefix", o.logPrefix != null,
                  "--sampling-rate", o.samplingRate != null,
                  "--failures-detailed", o.failuresDetailed)
              .entrySet()) {
        if (e.getValue()) {
          throw new UsageException(e.getKey() + " needs -l (--log), as in pgbench");
        }
      }
      return null;
    }
    String prefix = o.logPrefix != null ? o.logPrefix : "pgbench_log";
    if (prefix.isBlank()) {
      throw new UsageException("--log-prefix must not be empty");
    }
    // the name carries this process's id as pgbench's does, fixed here so every fork agrees
    Path base = Path.of(prefix + "." + ProcessHandle.current().pid()).toAbsolutePath();
    String unwritable = JsonReport.unwritable(base);
    if (unwritable != null) {
      throw new UsageException("--log-prefix " + prefix + ": " + unwritable);
    }
    return new TxLogSpec(base.toString(), o.aggregateInterval, o.samplingRate, o.failuresDetailed);
  }
}
