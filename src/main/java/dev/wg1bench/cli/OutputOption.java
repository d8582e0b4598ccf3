package dev.wg1bench.cli;

import dev.wg1bench.json.OutputFile;
import dev.wg1bench.plan.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code -o/--output FILE} and {@code --force}: where a command writes its JSON result, declared
 * once for every command that writes one (a command without a default requires it with {@link
 * #required(String)}). Like pgbench's own files and unlike JMH's {@code -rff}, an existing result
 * is never replaced unasked: an existing regular file is refused before anything runs unless {@code
 * --force} is given (the line then says it was replaced); a default name is never another run's
 * (see {@link OutputFile#guard}); a special file ({@code /dev/null}, a FIFO) is written in place.
 */
final class OutputOption {
  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "JSON result file (default: results/TIMESTAMP-NAME.json, NAME the workload or the"
              + " command, -2 appended if a run took that name first; merge needs it). An existing"
              + " file is refused unless --force is given.")
  Path file;

  @Option(
      names = "--force",
      description =
          "Replace an existing -o file (experiments: also drop their own tables even if they hold"
              + " rows).")
  boolean force;

  /** The file given, else {@code results/TIMESTAMP-NAME.json}. */
  Path orStamped(String name) {
    return file != null ? given() : OutputFile.guard(ResultFiles.stamped(name));
  }

  /** The file given; a command with no default file says it needs one. */
  Path required(String command) {
    if (file == null) {
      throw new UsageException(command + " needs -o FILE (--output): where to write the result");
    }
    return given();
  }

  /**
   * The -o file, refused if it is an existing regular file and --force is not given; without
   * --force it is guarded, so a file that appears there during the run is not replaced either.
   */
  private Path given() {
    if (force) {
      return file;
    }
    // /dev/stdout redirected to a file is still this process's stdout: written in place
    if (Files.isRegularFile(file) && !OutputFile.special(file)) {
      throw new UsageException(
          "--output " + file + ": the file exists; give --force to replace it");
    }
    return OutputFile.guard(file);
  }
}
