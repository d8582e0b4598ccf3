package dev.wg1bench.cli;

import dev.wg1bench.history.store.AppendOnce;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.NewerFormatException;
import dev.wg1bench.history.store.ResultRuns;
import dev.wg1bench.history.store.RunAttributes;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --history[=LOCATION]} and {@code --attr KEY=VALUE} on a run, sweep, replay or advise: once
 * the result file is written, it is appended to the history. The result file comes first, so a
 * history that cannot be reached loses nothing: the run is stored later with {@code history add}.
 */
final class HistoryOptions {
  @Option(
      names = "--history",
      arity = "0..1",
      paramLabel = "LOCATION",
      fallbackValue = "",
      description = {
        "Also store the result in a history: with no value the folder under $WG1BENCH_HOME"
            + " (default ~/.wg1bench), or a jdbc:postgresql:// URL (a schema a team shares).",
      })
  String history;

  @Option(
      names = "--attr",
      parameterConsumer = KeyValues.class,
      paramLabel = "KEY=VALUE",
      description =
          "An attribute of the stored run (repeatable), e.g. --attr commit=abc123 --attr"
              + " branch=main; commit and branch default to git's, and the CI build's.")
  Map<String, String> attrs = new LinkedHashMap<>();

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** Whether the result is to be stored. */
  boolean on() {
    return history != null;
  }

  /** Fails on a bad location or attribute before anything runs. */
  void check() {
    if (!attrs.isEmpty() && history == null) {
      throw new UsageException("--attr is stored with the run: it needs --history");
    }
    HistoryStores.check(history);
    checkAttrs(attrs);
  }

  static void checkAttrs(Map<String, String> attrs) {
    checkAttrs(attrs, "--attr");
  }

  /** Refuses a KEY an attribute cannot have, naming the option it came with. */
  static void checkAttrs(Map<String, String> attrs, String option) {
    for (String k : attrs.keySet()) {
      if (!k.matches("[A-Za-z][A-Za-z0-9_.-]*")) {
        throw new UsageException(
            option
                + " '"
                + k
                + "': a KEY starts with a letter and has only letters, digits, '_', '.' or '-'");
      }
    }
  }

  /** Appends the result file just written, when --history was given; one line says where. */
  void store(Path result) {
    if (on()) {
      store(history, attrs, List.of(result), true, mixee.commandLine().getOut());
    }
  }

  /**
   * Reads every file as a stored run before appending any (a bad one stores nothing), then appends
   * them in order, one line each.
   *
   * @param justWritten whether the files are a result this invocation wrote: then a failure says
   *     the result is kept and how to store it later
   */
  static List<StoredRun> store(
      String location,
      Map<String, String> user,
      List<Path> files,
      boolean justWritten,
      PrintWriter out) {
    Map<String, String> attrs =
        RunAttributes.collect(Path.of("").toAbsolutePath(), System.getenv(), user);
    List<StoredRun> runs = new ArrayList<>();
    for (Path f : files) {
      runs.add(ResultRuns.read(f, attrs));
    }
    String where = HistoryStores.describe(location, HistoryStores.home(System.getenv()));
    List<StoredRun> stored = new ArrayList<>();
    try (HistoryStore store = HistoryStores.open(location)) {
      where = store.describe();
      AppendOnce once = new AppendOnce(store);
      for (StoredRun r : runs) {
        HistoryStore.Appended o = once.append(r);
        stored.add(o.run());
        out.println(
            o.alreadyStored()
                ? "history: run of "
                    + r.time()
                    + " already stored as "
                    + o.run().id()
                    + " in "
                    + where
                    + "; not stored again"
                : "history: stored run " + o.run().id() + " in " + where);
      }
    } catch (NewerFormatException e) {
      throw new RunFailure("history " + where + ": " + e.getMessage() + kept(files, justWritten));
    } catch (IOException e) {
      throw new RunFailure(
          "history "
              + where
              + ": cannot be reached or written: "
              + e.getMessage().replaceAll("\\.$", "")
              + kept(files, justWritten),
          e);
    }
    return stored;
  }

  private static String kept(List<Path> files, boolean justWritten) {
    if (!justWritten) {
      return "; nothing was stored";
    }
    return "; the result is kept in "
        + files.get(0)
        + " (store it later with: wg1bench history add "
        + files.get(0)
        + ")";
  }
}
