package dev.wg1bench.cli;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.ConsoleReport;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.result.AgentRun;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Merge;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.run.Rendezvous;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code wg1bench merge}: the results of the agents of one run (--agent I/N) as one result, from
 * their files or from the table in the target they stored them in.
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Merge the results of a run's agents (--agent I/N) into one result.",
      "Counts are summed, percentiles come from the union of their latency histograms, tps is over "
          + "the common window, each agent's host, clients and CPU share are kept, and agents without a "
          + "result are listed. "
          + "The merged file is an ordinary result: 'report' and 'diff' read it."
    })
final class MergeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "RESULT.json", description = "The agents' results.")
  List<Path> files = new ArrayList<>();

  @Mixin OutputOption out;

  @Option(
      names = "--from-target",
      description =
          "Read the agents' results from the --target they ran against (with --run-id) instead of"
              + " files.")
  boolean fromTarget;

  @Option(names = "--run-id", paramLabel = "ID", description = "The run to merge (--from-target).")
  String runId;

  @Mixin TargetOptions targets;

  @Override
  public Integer call() {
    Path output = out.required("merge");
    String unwritable = JsonReport.unwritable(output);
    if (unwritable != null) {
      throw new UsageException("--output " + output + ": " + unwritable);
    }
    List<BenchmarkRun> runs = new ArrayList<>();
    Map<Integer, String> absent = Map.of();
    if (fromTarget) {
      Rendezvous.Collected c = collected();
      runs.addAll(c.results());
      absent = c.absent();
    } else {
      if (files.isEmpty()) {
        throw new UsageException("merge needs RESULT.json files or --from-target --run-id ID");
      }
      ResultFiles.read("merge", files).forEach(s -> runs.add(s.run()));
    }
    BenchmarkRun merged = Merge.of(runs, absent);
    var written = JsonReport.write(merged, output);
    AgentRun a = merged.agents();
    printAgents(a);
    for (TrialResult t : merged.trials()) {
      out().println();
      ConsoleReport.trial(merged, t, Console.out(spec));
    }
    out().println("merged result written to " + written);
    return a.missing().isEmpty() ? 0 : 1;
  }

  /** The agents' results as the target's table holds them, and why the missing ones are. */
  private Rendezvous.Collected collected() {
    if (!files.isEmpty()) {
      throw new UsageException("merge: give RESULT.json files or --from-target, not both");
    }
    if (runId == null) {
      throw new UsageException("merge --from-target needs --run-id ID");
    }
    List<TargetSpec> t = targets.resolve(false);
    if (t.size() != 1) {
      throw new UsageException(
          "merge --from-target needs exactly one --target (where the agents ran), got " + t.size());
    }
    Rendezvous.Collected c = Rendezvous.collect(t.get(0), runId);
    if (c.results().isEmpty()) {
      throw new RunFailure("merge: no agent of run " + runId + " stored a result: " + c.absent());
    }
    return c;
  }

  /**
   * Who took part, with each agent's clock offset (the figures rest on it), and who is missing,
   * whose ops the figures lack.
   */
  private void printAgents(AgentRun a) {
    out()
        .printf(
            "run %s: %d of %d agents merged, %d clients%n",
            a.runId(), a.members().size(), a.count(), a.clients());
    for (AgentRun.Member m : a.members()) {
      out()
          .printf(
              "  agent %d on %s (pid %d): clients %d..%d, clock offset %+.1f ms%n",
              m.index(),
              m.host(),
              m.pid(),
              m.firstClient(),
              m.firstClient() + m.clients() - 1,
              m.clockOffsetMs());
    }
    for (AgentRun.Missing m : a.missing()) {
      out().printf("  agent %d MISSING: %s; its ops are not in the figures%n", m.index(), m.why());
    }
  }

  /** Standard output: picocli's, as Main or a test set it. */
  private PrintWriter out() {
    return spec.commandLine().getOut();
  }
}
