package dev.wg1bench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wg1bench history add FILE.json...}: results already on disk into a history. Every file is
 * read first; one that is not a result stores nothing of the call.
 */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
      "Store result files (run, sweep, advise, merge, replay) in a history.",
      "One stored run per file; every file is checked first: one that is not a result stores "
          + "none of them."
    })
final class HistoryAddCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "wg1bench result files (JSON).")
  List<Path> files = new ArrayList<>();

  @Mixin HistoryLocation history;

  @Option(
      names = "--attr",
      parameterConsumer = KeyValues.class,
      paramLabel = "KEY=VALUE",
      description =
          "An attribute of every stored run (repeatable); commit and branch default to git's in"
              + " the working directory, and the CI build's.")
  Map<String, String> attrs = new LinkedHashMap<>();

  @Override
  public Integer call() {
    history.check();
    HistoryOptions.checkAttrs(attrs);
    HistoryOptions.store(history.value, attrs, files, false, out());
    return 0;
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
