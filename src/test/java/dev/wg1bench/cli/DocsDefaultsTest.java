package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.gate.RegressionGate;
import dev.wg1bench.plan.BlockDefaults;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.TimingDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The manual's sentences that state a default state the declared one: each expected sentence is
 * built from the declaration ({@link TimingDefaults}, {@link BlockDefaults}, the knobs, the
 * options' fields), so a default changed in code and not in the docs, or the reverse, fails here.
 */
class DocsDefaultsTest {
  private static final Path DOCS = Path.of("docs");

  /** Each file and the sentence it should hold. */
  private final List<String[]> stated = new ArrayList<>();

  private void say(String file, String sentence) {
    stated.add(new String[] {file, sentence});
  }

  @Test
  void everyStatedDefaultIsTheDeclaredOne() throws IOException {
    TimingDefaults run = TimingDefaults.RUN;
    TimingDefaults blocks = TimingDefaults.BLOCKS;
    TimingDefaults api = TimingDefaults.API;
    BlockDefaults advise = BlockDefaults.ADVISE;
    say("reference/run-options.md", "one connection each (default " + Knobs.CLIENTS.unset() + ")");
    say(
        "reference/run-options.md",
        "split into `--iterations` (default "
            + TimingDefaults.text(run.duration())
            + " in "
            + run.iterations()
            + ")");
    say(
        "reference/run-options.md",
        "with a block experiment's defaults, "
            + TimingDefaults.text(blocks.duration())
            + " in "
            + blocks.iterations()
            + " after "
            + TimingDefaults.text(blocks.warmup())
            + " of warmup");
    say(
        "reference/run-options.md",
        "the Java API's are "
            + TimingDefaults.text(api.duration())
            + " in "
            + api.iterations()
            + " after "
            + TimingDefaults.text(api.warmup())
            + ", in this JVM");
    say(
        "reference/run-options.md",
        "before measuring (default " + TimingDefaults.text(run.warmup()) + "; 0 for none)");
    say(
        "reference/run-options.md",
        "measured in turn (default " + run.forks() + "; 0 = in-process)");
    say(
        "explanation/measurement.md",
        "(`--warmup`, default "
            + spaced(run.warmup())
            + "), then `--duration` split into `--iterations` windows (default "
            + spaced(run.duration())
            + " in "
            + run.iterations()
            + ")");
    say(
        "guides/coming-from-pgbench.md",
        "plus a `--warmup` ("
            + spaced(run.warmup())
            + ") and "
            + run.iterations()
            + " JMH iterations by default");
    say(
        "explanation/statistics.md",
        "(`--margin`, default " + BlockDefaults.percent(advise.margin()) + ")");
    say("explanation/statistics.md", "`--blocks N` (default " + advise.blocks() + ";");
    say(
        "explanation/statistics.md",
        "`--budget` (default " + Durations.option(advise.budget()) + ",");
    say(
        "guides/history.md",
        "`--blocks` ("
            + new ConfirmOptions.Experiment().blocks
            + "), `-T/--duration` ("
            + TimingDefaults.text(blocks.duration())
            + "), `--warmup` ("
            + TimingDefaults.text(blocks.warmup())
            + "), `--iterations` ("
            + blocks.iterations()
            + "), `--forks` ("
            + blocks.forks()
            + "), `--seed` and `--margin` ("
            + BlockDefaults.percent(advise.margin())
            + ")");
    say(
        "guides/history.md",
        "`--borderline-p` (default " + RegressionGate.BORDERLINE_TIMES_P + " \u00d7 `--p`)");
    for (String[] s : stated) {
      Path file = DOCS.resolve(s[0]);
      String text = Files.readString(file).replaceAll("\\s+", " ");
      assertTrue(
          text.contains(s[1]), file + " should say '" + s[1] + "', as the declaration holds");
    }
  }

  /** "5 s" as the prose writes a whole number of seconds. */
  private static String spaced(Duration d) {
    return d.toSeconds() + " s";
  }
}
