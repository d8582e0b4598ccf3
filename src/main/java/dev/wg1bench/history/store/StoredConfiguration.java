package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.workload.WorkloadRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A configuration as a history names it ({@code WORKLOAD KEY=VALUE ... @TARGET}, as {@link
 * ResultRuns} writes it) turned back into the run options that measure it: the workload and every
 * knob value the name records. {@code history check} re-measures each flagged series with arms
 * built on its own configuration, so blocks of one workload never settle a series of another.
 *
 * <p>Only what the name says can be rebuilt. A script run names its files, not their paths; a
 * replay, an advise result or an imported series names no run options at all; those are refused
 * with the reason. The target is not rebuilt: the re-measurement runs where {@code --target} says,
 * on this machine.
 *
 * @param name the configuration's name, the CONFIG of {@code CONFIG/METRIC}
 * @param options the run options that measure it, one option with its value (if it takes one) an
 *     element (null when it cannot be rebuilt)
 * @param labels the workload and knob labels the name records, e.g. {@code clients=4}: what both
 *     arms must keep
 * @param unbuilt why it cannot be rebuilt, or null
 */
public record StoredConfiguration(
    String name, List<List<String>> options, Map<String, String> labels, String unbuilt) {

  /** Label prefixes of the map knobs ({@code set.NAME=VALUE}) and their options. */
  private static final Map<String, String> MAP_KNOBS =
      Map.of("set.", "--set", "table.", "--table-option", "jdbc.", "--jdbc-property");

  /** The configuration part of a series' name: the name without its {@code /METRIC}. */
  public static String of(Series s) {
    String suffix = "/" + s.metric();
    String name = s.name();
    return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
  }

  /** Whether it could be rebuilt as run options. */
  public boolean rebuilt() {
    return unbuilt == null;
  }

  /** The configuration the name describes, or why it cannot be rebuilt from it. */
  public static StoredConfiguration parse(String name) {
    String[] words = name.trim().split(" ");
    if (words.length < 2 || !words[words.length - 1].startsWith("@")) {
      return refused(name, "not a configuration wg1bench wrote (WORKLOAD KEY=VALUE ... @TARGET)");
    }
    String workload = words[0];
    List<List<String>> options = new ArrayList<>();
    if (workload.startsWith(WorkloadRegistry.CLASS_PREFIX)) {
      options.add(
          List.of("--workload-class", workload.substring(WorkloadRegistry.CLASS_PREFIX.length())));
    } else if (WorkloadRegistry.exists(workload)) {
      options.add(List.of("--workload", workload));
    } else {
      return refused(
          name,
          "'"
              + workload
              + "' is not a built-in workload or a class: a run of script files, a replay or an"
              + " advise result names no options to run it again");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Knobs.WORKLOAD.key(), workload);
    for (int i = 1; i < words.length - 1; i++) {
      int eq = words[i].indexOf('=');
      if (eq <= 0) {
        return refused(name, "'" + words[i] + "' is not KEY=VALUE");
      }
      String key = words[i].substring(0, eq);
      String value = words[i].substring(eq + 1);
      String why = option(key, value, options);
      if (why != null) {
        return refused(name, why);
      }
      labels.put(key, value);
    }
    return new StoredConfiguration(name, List.copyOf(options), Map.copyOf(labels), null);
  }

  /** Adds the option of one recorded knob value; null, or why the label is no knob's. */
  private static String option(String key, String value, List<List<String>> options) {
    for (Map.Entry<String, String> m : MAP_KNOBS.entrySet()) {
      if (key.startsWith(m.getKey())) {
        // a comma in a map value would sweep it: the stored value is one point's
        options.add(
            List.of(
                m.getValue(),
                key.substring(m.getKey().length()) + "=" + value.replace(",", "\\,")));
        return null;
      }
    }
    for (Knob<?> k : Knobs.ALL) {
      if (!k.key().equals(key)) {
        continue;
      }
      if (k == Knobs.ISOLATION && value.equals("default")) {
        return null; // the workload's own level, else the server's: what no option gives
      }
      if (k.shape() == Knob.Shape.FLAG) {
        if (value.equals("true")) {
          options.add(List.of(k.option()));
        }
        return null;
      }
      options.add(List.of(k.option(), value));
      return null;
    }
    return "'" + key + "' is not a knob of a run";
  }

  private static StoredConfiguration refused(String name, String why) {
    return new StoredConfiguration(name, null, Map.of(), why);
  }
}
