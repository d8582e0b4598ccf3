package dev.wg1bench.cli;

import dev.wg1bench.history.gate.RegressionGate;
import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.UsageException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code history check}'s same-machine mode: the two arms re-measured in randomized blocks when the
 * history cannot settle a series, and the experiment's shape. Every value is checked here, once;
 * none of them means anything without both arms.
 */
final class ConfirmOptions {
  /** Which series the blocks re-measure. */
  enum Which {
    /** worse, with p between --p and --borderline-p: the history neither shows nor rules out */
    borderline,
    /** those the history flags: they then fail only if the blocks confirm them */
    regressions,
    /** both */
    all
  }

  /**
   * The re-measurement's own options, none of which means anything without both arms; picocli makes
   * the group only when one of them is given.
   */
  static final class Experiment {
    @Option(
        names = "--confirm-baseline",
        paramLabel = "OPTIONS",
        description =
            "Run options of the baseline, what the runs before the latest ran (e.g. \"--classpath"
                + " base.jar\"). With --confirm-candidate: series the history cannot settle are"
                + " re-measured on this machine, baseline against candidate in randomized blocks"
                + " (the advise engine), before the gate decides; each series with the workload and"
                + " knob values its configuration recorded, under these options.")
    String baseline;

    @Option(
        names = "--confirm-candidate",
        paramLabel = "OPTIONS",
        description = "Run options of the candidate, what the latest runs ran.")
    String candidate;

    @Option(
        names = "--confirm",
        paramLabel = "WHICH",
        description =
            "Which series the blocks re-measure: borderline (worse, p between --p and"
                + " --borderline-p), regressions (flagged ones, which then fail only when the blocks"
                + " confirm them) or all (default: ${DEFAULT-VALUE}).")
    Which which = Which.borderline;

    @Option(
        names = "--blocks",
        paramLabel = "N",
        description =
            "Blocks of the re-measurement, each one baseline and one candidate trial"
                + " (default: ${DEFAULT-VALUE}).")
    int blocks = 6;
  }

  @ArgGroup(exclusive = false, validate = false)
  Experiment experiment = new Experiment();

  @Option(
      names = "--borderline-p",
      paramLabel = "P",
      description =
          "A worse result with p above --p and at most this is borderline (default: "
              + RegressionGate.BORDERLINE_TIMES_P
              + " x --p).")
  Double borderlineP;

  /** Each trial's length and JMH's shape, with a block experiment's defaults (advise's). */
  @Mixin TimingOptions timing;

  @Mixin MarginOption margin;

  /** The command these options are part of: whether --margin was given (it has a default). */
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Mixin TargetOptions targets;

  @Mixin OutputOption output;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show JMH's own output of the re-measurement.")
  boolean verbose;

  /**
   * These options' own model: its mixins' options (the trial's timing, the targets, the margin, the
   * result file), shared with advise, shape the re-measurement too, and without both arms they are
   * refused as the group's own are; read from their declarations, so a mixin's new option is
   * refused with them.
   */
  @Spec CommandSpec self;

  /** The long names of every option the mixins above declare. */
  private Set<String> shared() {
    Set<String> names = new HashSet<>();
    if (self != null) {
      for (CommandSpec mixin : self.mixins().values()) {
        mixin.options().forEach(o -> names.add(o.longestName()));
      }
    }
    return names;
  }

  /** The group as given (its defaults when picocli dropped the instance). */
  private Experiment experiment() {
    return experiment == null ? new Experiment() : experiment;
  }

  /**
   * Whether both arms were given; one alone, or the experiment's shape without them, is refused.
   */
  boolean on() {
    Experiment e = experiment();
    if ((e.baseline == null) != (e.candidate == null)) {
      throw new UsageException(
          (e.baseline == null ? "--confirm-candidate" : "--confirm-baseline")
              + " needs "
              + (e.baseline == null ? "--confirm-baseline" : "--confirm-candidate")
              + ": the blocks compare two arms");
    }
    if (e.baseline == null) {
      // the experiment's shape given without the experiment: say so rather than ignore it
      Set<String> shared = shared();
      for (OptionSpec o : matched()) {
        if (o.group() != null || shared.contains(o.longestName())) {
          throw new UsageException(
              o.longestName()
                  + " shapes the re-measurement: it needs --confirm-baseline and"
                  + " --confirm-candidate");
        }
      }
      return false;
    }
    Checks.range("--blocks", blocks(), 2, Matrix.MAX_REPEAT, "an interval needs 2 blocks");
    return true;
  }

  /** The options the command line gave, in its order. */
  private List<OptionSpec> matched() {
    return mixee == null || mixee.commandLine() == null
        ? List.of()
        : mixee.commandLine().getParseResult().matchedOptions();
  }

  String baseline() {
    return experiment().baseline;
  }

  String candidate() {
    return experiment().candidate;
  }

  Which which() {
    return experiment().which;
  }

  /** The borderline level: given (above p, below 1), else ten times p. */
  double borderlineP(double p, double dflt) {
    if (borderlineP == null) {
      return dflt;
    }
    if (!(borderlineP > p && borderlineP < 1)) {
      throw new UsageException(
          "--borderline-p must be above --p ("
              + p
              + ") and below 1, got "
              + borderlineP
              + " (e.g. "
              + dflt
              + ")");
    }
    return borderlineP;
  }

  int blocks() {
    return experiment().blocks;
  }

  AdviceArms.TrialShape shape() {
    return timing.shape();
  }
}
