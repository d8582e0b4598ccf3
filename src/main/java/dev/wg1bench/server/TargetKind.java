package dev.wg1bench.server;

import dev.wg1bench.plan.TargetSpec;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One kind of target: how its {@code --target} text reads and the object a spec of it becomes.
 * Registered in {@link Targets}; a new kind is a class with one of these and one line there. The
 * kinds differ only in these parts, so each is built from them rather than written as a class.
 *
 * @param kind the spec kind it reads and opens
 * @param acceptsUrl true when a URL (the text after an optional {@code NAME=}) is of this kind
 * @param parser the spec for text this kind accepts
 * @param opener the object behind a spec of this kind
 * @param traits what callers may ask of this kind, so that none compares kind names
 */
public record TargetKind(
    TargetSpec.Kind kind,
    Predicate<String> acceptsUrl,
    Parser parser,
    Function<TargetSpec, Target> opener,
    Set<Trait> traits) {

  /**
   * What differs between kinds in how the rest of the tool treats them. Callers ask {@link
   * Targets#has} rather than a kind's name, so a new kind says here what it is.
   */
  public enum Trait {
    /** Each process that opens it gets a server of its own: agents cannot share one. */
    ONE_PER_PROCESS,
    /** Started for the run, so {@code --server-setting} can set its configuration. */
    TAKES_SERVER_SETTINGS,
    /** Runs with its distribution's stock settings, not a tuned server's: the console says so. */
    STOCK_SETTINGS
  }

  public TargetKind {
    traits = Set.copyOf(traits);
  }

  /** Reads a {@code --target} value this kind accepts into its spec. */
  @FunctionalInterface
  public interface Parser {
    TargetSpec parse(String name, String url, String text, Map<String, String> env, Path pwFile);
  }

  /** True when {@code url} (the text after an optional {@code NAME=}) is of this kind. */
  public boolean accepts(String url) {
    return acceptsUrl.test(url);
  }

  /**
   * The spec for text this kind {@link #accepts}; {@code name} is the {@code NAME=} label or null,
   * {@code text} the whole option value (for messages, redacted).
   */
  public TargetSpec parse(
      String name, String url, String text, Map<String, String> env, Path pwFile) {
    return parser.parse(name, url, text, env, pwFile);
  }

  /** The object behind a spec of this kind. */
  public Target open(TargetSpec spec) {
    return opener.apply(spec);
  }
}
