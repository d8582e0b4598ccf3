package dev.wg1bench.cli;

import dev.wg1bench.history.store.StoredRun;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code wg1bench history list}: the stored runs, oldest first. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "The stored runs, oldest first: id, time (UTC), kind, commit, branch, metrics.")
final class HistoryListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin HistoryLocation history;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  @Override
  public Integer call() {
    List<StoredRun> runs = history.use((store, at) -> store.runs());
    String where = history.where();
    if (runs.isEmpty()) {
      out().println("no runs in " + where);
      return 0;
    }
    String row = "%-33s  %-19s  %-12s  %-12s  %-20s  %7s%n";
    out().printf(row, "id", "time (UTC)", "kind", "commit", "branch", "metrics");
    for (StoredRun r : runs) {
      out()
          .printf(
              row,
              r.id(),
              TIME.format(r.time()),
              r.kind(),
              r.commit() == null ? "-" : abbreviate(r.commit(), 12),
              r.attributes().getOrDefault("branch", "-"),
              r.metrics().size());
    }
    out().println(runs.size() + " run(s) in " + where);
    return 0;
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n);
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
