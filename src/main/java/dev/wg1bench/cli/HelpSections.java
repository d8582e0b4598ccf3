package dev.wg1bench.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The run command's {@code --help} in headed sections instead of one list of ninety options. The
 * headings live here, as a map from option name to heading, so the option classes keep no layout of
 * their own (an {@code @ArgGroup} in each would); an option this map does not name is listed under
 * "Other options", so a new option is never left out of the help.
 */
final class HelpSections {
  private HelpSections() {}

  static final String OTHER = "Other options";

  /** Heading to the options under it, in the order they are listed. */
  static final Map<String, List<String>> SECTIONS = new LinkedHashMap<>();

  static {
    SECTIONS.put(
        "Targets (where to run; default: an embedded PostgreSQL)",
        List.of("--target", "--password-file", "--server-setting", "--via"));
    SECTIONS.put(
        "Workload (what each client runs)",
        List.of(
            "--workload",
            "--script",
            "--workload-class",
            "--classpath",
            "--define",
            "--scale",
            "--random-seed",
            "--check"));
    SECTIONS.put(
        "Timing (how long and how often)",
        List.of(
            "--duration",
            "--transactions",
            "--warmup",
            "--iterations",
            "--forks",
            "--repeat",
            "--order",
            "--seed",
            "--between-trials",
            "--rate",
            "--latency-limit"));
    SECTIONS.put(
        "Knobs (a comma-separated list sweeps)",
        List.of(
            "--clients",
            "--query-mode",
            "--isolation",
            "--pool-size",
            "--threads",
            "--batch-size",
            "--set",
            "--fillfactor",
            "--table-option",
            "--prepare-threshold",
            "--binary-transfer",
            "--fetch-size",
            "--rewrite-batched-inserts",
            "--statement-timeout",
            "--sslmode",
            "--jdbc-property"));
    SECTIONS.put(
        "Failures and retries",
        List.of("--max-tries", "--exit-on-error", "--exit-on-abort", "--continue-on-error"));
    SECTIONS.put(
        "Output",
        List.of(
            "--output",
            "--csv",
            "--progress",
            "--report-per-command",
            "--verbose",
            "--log",
            "--log-prefix",
            "--sampling-rate",
            "--aggregate-interval",
            "--failures-detailed"));
    SECTIONS.put("Results history", List.of("--history", "--attr"));
    SECTIONS.put(
        "pgbench compatibility", List.of("-S", "-N", "--builtin", "--no-vacuum", "--jobs"));
    SECTIONS.put("Several client machines", List.of("--agent", "--run-id", "--rendezvous-timeout"));
  }

  /** The heading an option is listed under. */
  static String headingOf(OptionSpec option) {
    for (Map.Entry<String, List<String>> e : SECTIONS.entrySet()) {
      for (String name : option.names()) {
        if (e.getValue().contains(name)) {
          return e.getKey();
        }
      }
    }
    return OTHER;
  }

  /** The visible options of a command by heading, every heading's options in the map's order. */
  static Map<String, List<OptionSpec>> grouped(CommandLine.Model.CommandSpec spec) {
    Map<String, List<OptionSpec>> out = new LinkedHashMap<>();
    SECTIONS.keySet().forEach(h -> out.put(h, new ArrayList<>()));
    out.put(OTHER, new ArrayList<>());
    for (OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        out.get(headingOf(o)).add(o);
      }
    }
    for (Map.Entry<String, List<String>> e : SECTIONS.entrySet()) {
      List<String> order = e.getValue();
      out.get(e.getKey()).sort(Comparator.comparingInt(o -> rank(order, o)));
    }
    out.values().removeIf(List::isEmpty);
    return out;
  }

  private static int rank(List<String> order, OptionSpec o) {
    for (String name : o.names()) {
      int i = order.indexOf(name);
      if (i >= 0) {
        return i;
      }
    }
    return order.size();
  }

  /**
   * Replaces the command's one option list by one headed section per group, through picocli's
   * section map, and shortens the synopsis to {@code [OPTIONS] [COMMAND]} (the sections list them).
   */
  static CommandLine install(CommandLine cl) {
    UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
    usage.abbreviateSynopsis(true);
    usage.commandListHeading("%nCommands:%n");
    List<String> keys = new ArrayList<>(usage.sectionKeys());
    int at = keys.indexOf(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING);
    keys.remove(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING);
    keys.remove(UsageMessageSpec.SECTION_KEY_OPTION_LIST);
    Map<String, List<OptionSpec>> groups = grouped(cl.getCommandSpec());
    List<String> added = new ArrayList<>();
    for (Map.Entry<String, List<OptionSpec>> g : groups.entrySet()) {
      String key = "wg1bench.options." + g.getKey();
      List<OptionSpec> options = g.getValue();
      String heading = g.getKey();
      usage
          .sectionMap()
          .put(
              key,
              help ->
                  help.createHeading("%n" + heading + ":%n")
                      + help.optionListExcludingGroups(
                          options,
                          help.createDefaultLayout(),
                          null,
                          help.parameterLabelRenderer()));
      added.add(key);
    }
    keys.addAll(at < 0 ? keys.size() : at, added);
    usage.sectionKeys(keys);
    return cl;
  }
}
