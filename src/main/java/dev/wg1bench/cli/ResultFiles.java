package dev.wg1bench.cli;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.HtmlReport;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Result files as the commands name and read them: one rule for the default name, one reader. */
final class ResultFiles {
  private ResultFiles() {}

  /** results/TIMESTAMP-NAME.json: where a command writes its result when -o is not given. */
  static Path stamped(String name) {
    return Path.of(
        "results",
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
            + "-"
            + name
            + ".json");
  }

  /** The saved results; one that cannot be read is a usage error of {@code command}. */
  static List<HtmlReport.Source> read(String command, List<Path> files) {
    List<HtmlReport.Source> out = new ArrayList<>();
    for (Path f : files) {
      try {
        out.add(HtmlReport.read(f));
      } catch (HtmlReport.BadInput e) {
        throw new UsageException(command + ": " + e.getMessage(), e);
      }
    }
    return out;
  }
}
