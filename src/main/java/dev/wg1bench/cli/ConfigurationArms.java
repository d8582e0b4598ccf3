package dev.wg1bench.cli;

import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.store.StoredConfiguration;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.run.BlockExperiment;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code history check}'s arms, one pair per configuration of the series it re-measures: the
 * configuration as the history recorded it (workload and knob values, {@link StoredConfiguration})
 * under what {@code --confirm-baseline} and {@code --confirm-candidate} add (another classpath,
 * another setting). Blocks of one configuration thus never confirm or clear a series of another. A
 * series whose configuration cannot be rebuilt, or whose arm contradicts a value the configuration
 * recorded, is not re-measured: one line on stderr names it, and the history's outcome stands.
 */
final class ConfigurationArms {
  private ConfigurationArms() {}

  /**
   * The series of one configuration and the options of its two arms.
   *
   * @param configuration the configuration's name, as the series names it
   * @param series its series to re-measure
   * @param baseline the baseline arm's run options
   * @param candidate the candidate arm's run options
   */
  record Group(String configuration, List<Series> series, String baseline, String candidate) {}

  /** Map knobs: an arm's own entries add to the configuration's rather than replace them. */
  private static final Set<String> MAPS = Set.of("--set", "--table-option", "--jdbc-property");

  /**
   * The series grouped by configuration, each with its arms. A single configuration that cannot be
   * rebuilt (an imported series, a script run) is measured by the arms as given: the user wrote the
   * whole configuration. Among several, such a configuration's series are refused on {@code err}.
   */
  static List<Group> groups(
      List<Series> series, String baseline, String candidate, PrintStream err) {
    Map<String, List<Series>> byConfig = new LinkedHashMap<>();
    for (Series s : series) {
      byConfig.computeIfAbsent(StoredConfiguration.of(s), k -> new ArrayList<>()).add(s);
    }
    List<Group> out = new ArrayList<>();
    for (Map.Entry<String, List<Series>> e : byConfig.entrySet()) {
      StoredConfiguration c = StoredConfiguration.parse(e.getKey());
      if (c.rebuilt()) {
        out.add(new Group(e.getKey(), e.getValue(), options(c, baseline), options(c, candidate)));
      } else if (byConfig.size() == 1) {
        out.add(new Group(e.getKey(), e.getValue(), baseline, candidate));
      } else {
        refuse(
            err,
            e.getValue(),
            "its configuration '"
                + e.getKey()
                + "' cannot be rebuilt from the history ("
                + c.unbuilt()
                + "), and one pair of arms re-measures one configuration");
      }
    }
    return out;
  }

  /**
   * The configuration's options, then the arm's: an option the arm gives itself replaces the
   * configuration's (a map knob's entries add up), so that two of a single-value option never meet.
   */
  static String options(StoredConfiguration c, String arm) {
    Set<String> given = new HashSet<>();
    for (String w : arm.trim().split("\\s+")) {
      if (w.startsWith("-")) {
        given.add(w.contains("=") ? w.substring(0, w.indexOf('=')) : w);
      }
    }
    List<String> out = new ArrayList<>();
    for (List<String> option : c.options()) {
      if (MAPS.contains(option.get(0))
          || names(option.get(0)).stream().noneMatch(given::contains)) {
        out.addAll(option);
      }
    }
    String own = arm.trim();
    return own.isEmpty() ? String.join(" ", out) : String.join(" ", out) + " " + own;
  }

  /** Every name of the option: a knob's short and long ones; a workload's three. */
  private static List<String> names(String option) {
    if (option.equals("--workload") || option.equals("--workload-class")) {
      return List.of("-w", "--workload", "--workload-class");
    }
    for (Knob<?> k : Knobs.ALL) {
      if (k.option().equals(option)) {
        return k.names();
      }
    }
    return List.of(option);
  }

  /**
   * Where an arm, as planned, contradicts a value the configuration recorded (an arm's own {@code
   * --clients 8} for a series of {@code clients=4}): the first such, in words, or null.
   */
  static String contradiction(String configuration, BlockExperiment.Planned planned) {
    StoredConfiguration c = StoredConfiguration.parse(configuration);
    if (!c.rebuilt()) {
      return null; // the arms as given: nothing recorded to hold them to
    }
    for (String arm : List.of("baseline", "candidate")) {
      List<Matrix.Point> points = arm.equals("baseline") ? planned.baseline() : planned.treatment();
      for (Matrix.Point p : points) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (Knob<?> k : Knobs.ALL) {
          labels.putAll(k.labels(p.plan()));
        }
        for (Map.Entry<String, String> e : c.labels().entrySet()) {
          String got = labels.get(e.getKey());
          if (!e.getValue().equals(got)) {
            return "--confirm-"
                + arm
                + " runs "
                + e.getKey()
                + "="
                + got
                + " where the configuration recorded "
                + e.getKey()
                + "="
                + e.getValue();
          }
        }
      }
    }
    return null;
  }

  /** One line per series not re-measured, and why. */
  static void refuse(PrintStream err, List<Series> series, String why) {
    for (Series s : series) {
      err.println(
          "wg1bench: note: series "
              + s.name()
              + " is not re-measured: "
              + why
              + "; the history's outcome stands");
    }
  }
}
