package dev.wg1bench.cli;

import dev.wg1bench.plan.UsageException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code -o/--output FILE}: where a command writes its JSON result, declared once for every command
 * that writes one (a command without a default requires it with {@link #required(String)}).
 */
final class OutputOption {
  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "JSON result file (default: results/TIMESTAMP-NAME.json, NAME the workload or the"
              + " command; merge needs it).")
  Path file;

  /** The file given, else {@code dflt}. */
  Path orElse(Path dflt) {
    return file != null ? file : dflt;
  }

  /** The file given, else {@code results/TIMESTAMP-NAME.json}. */
  Path orStamped(String name) {
    return file != null ? file : ResultFiles.stamped(name);
  }

  /** The file given; a command with no default file says it needs one. */
  Path required(String command) {
    if (file == null) {
      throw new UsageException(command + " needs -o FILE (--output): where to write the result");
    }
    return file;
  }
}
