package dev.wg1bench.cli;

import dev.wg1bench.plan.UsageException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** --set of the commands that open one session of their own: the ssb commands, the experiments. */
final class SessionSettingOptions {
  @Option(
      names = "--set",
      parameterConsumer = KeyValues.class,
      paramLabel = "NAME=VALUE",
      description = "Session setting, repeatable (e.g. max_parallel_workers_per_gather=0).")
  Map<String, String> settings = new LinkedHashMap<>();

  /** The settings, each name checked before it reaches a SET statement. */
  Map<String, String> checked() {
    for (String k : settings.keySet()) {
      if (!k.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        throw new UsageException(
            "--set '" + k + "' is not a setting name (letters, digits, _ and .)");
      }
    }
    return settings;
  }
}
