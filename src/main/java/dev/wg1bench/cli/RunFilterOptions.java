package dev.wg1bench.cli;

import dev.wg1bench.history.store.RunFilter;
import dev.wg1bench.plan.UsageException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --branch} and {@code --where} of the history commands that read series: only the runs
 * stored with those attribute values, so a history shared by pull requests and main judges main
 * against main.
 */
final class RunFilterOptions {
  @Option(
      names = "--branch",
      paramLabel = "NAME",
      description =
          "Only the runs stored with this branch (their branch attribute), e.g. --branch main;"
              + " short for --where branch=NAME (default: every branch).")
  String branch;

  @Option(
      names = "--where",
      parameterConsumer = KeyValues.class,
      paramLabel = "KEY=VALUE",
      description =
          "Only the runs stored with this attribute value (repeatable: all must match), e.g."
              + " --where host=ci-3 (default: every run).")
  Map<String, String> where = new LinkedHashMap<>();

  /** The filter asked for; a KEY that no attribute can have, or two branches, is refused. */
  RunFilter filter() {
    HistoryOptions.checkAttrs(where, "--where");
    Map<String, String> all = new LinkedHashMap<>(where);
    if (branch != null) {
      String other = all.put("branch", branch);
      if (other != null && !other.equals(branch)) {
        throw new UsageException(
            "--branch " + branch + " and --where branch=" + other + ": one branch, not two");
      }
    }
    return new RunFilter(all);
  }
}
