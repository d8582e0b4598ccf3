package dev.wg1bench.cli;

import dev.wg1bench.plan.TimingDefaults;
import java.time.Duration;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * How long and how often each trial is measured, declared once for the run, {@code advise} and
 * {@code history check}'s re-measurement. Each command names its defaults with a {@link Defaults}
 * provider ({@code @Command(defaultValueProvider = ...)}), which reads them from {@link
 * TimingDefaults}; {@code --help} shows the command's own.
 */
final class TimingOptions {
  @Option(
      names = {"-T", "--duration"},
      paramLabel = "TIME",
      descriptionKey = "timing.duration",
      converter = Converters.DurationConverter.class,
      description = "Measured time per trial, e.g. 10s, 2m (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(
      names = "--warmup",
      paramLabel = "TIME",
      descriptionKey = "timing.warmup",
      converter = Converters.DurationConverter.class,
      description = "Warmup before measuring each trial, 0 for none (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(
      names = "--iterations",
      paramLabel = "N",
      descriptionKey = "timing.iterations",
      description =
          "JMH measurement iterations each trial's duration is split into (default:"
              + " ${DEFAULT-VALUE}).")
  Integer iterations;

  @Option(
      names = "--forks",
      paramLabel = "N",
      descriptionKey = "timing.forks",
      description =
          "JMH forks: fresh JVMs measured in turn; 0 = in this JVM (default: ${DEFAULT-VALUE}).")
  Integer forks;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of the trials' order (default: random, recorded in the result).")
  Long seed;

  /** Whether the command line gave this option (a default fills the field either way). */
  static boolean given(ParseResult parsed, String option) {
    return parsed != null && parsed.hasMatchedOption(option);
  }

  /** The trial's shape as the options of an arm take it, for the block experiments. */
  AdviceArms.TrialShape shape() {
    return new AdviceArms.TrialShape(
        TimingDefaults.text(duration), TimingDefaults.text(warmup), iterations, forks);
  }

  /**
   * A command's timing defaults, keyed by the options' description keys (picocli's own way of
   * naming an option to a provider); every other option keeps its declared default.
   */
  abstract static class Defaults implements IDefaultValueProvider {
    private final TimingDefaults defaults;

    Defaults(TimingDefaults defaults) {
      this.defaults = defaults;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
      String key = arg.descriptionKey();
      if (key == null) {
        return null;
      }
      return switch (key) {
        case "timing.duration" -> TimingDefaults.text(defaults.duration());
        case "timing.warmup" -> TimingDefaults.text(defaults.warmup());
        case "timing.iterations" -> Integer.toString(defaults.iterations());
        case "timing.forks" -> Integer.toString(defaults.forks());
        default -> null;
      };
    }
  }

  /** The run's ({@link TimingDefaults#RUN}). */
  static final class RunDefaults extends Defaults {
    RunDefaults() {
      super(TimingDefaults.RUN);
    }
  }

  /** A block experiment's ({@link TimingDefaults#BLOCKS}): advise, history check's blocks. */
  static final class BlockDefaults extends Defaults {
    BlockDefaults() {
      super(TimingDefaults.BLOCKS);
    }
  }
}
