package dev.wg1bench.server;

import dev.wg1bench.plan.TargetSpec;
import java.nio.file.Path;
import java.util.Map;

/**
 * One kind of target: how its {@code --target} text reads and the object a spec of it becomes.
 * Registered in {@link Targets}; a new kind is a class with one of these and one line there.
 */
public interface TargetKind {
  TargetSpec.Kind kind();

  /** True when {@code url} (the text after an optional {@code NAME=}) is of this kind. */
  boolean accepts(String url);

  /**
   * The spec for text this kind {@link #accepts}; {@code name} is the {@code NAME=} label or null,
   * {@code text} the whole option value (for messages, redacted).
   */
  TargetSpec parse(String name, String url, String text, Map<String, String> env, Path pwFile);

  /** The object behind a spec of this kind. */
  Target open(TargetSpec spec);
}
