package dev.wg1bench.history.store;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code --history LOCATION} keeps runs: no value, the default folder under {@code
 * $WG1BENCH_HOME} (default {@code ~/.wg1bench}); a {@code jdbc:postgresql://} URL, the schema
 * {@code wg1bench_history} in that database.
 */
public final class HistoryStores {
  private HistoryStores() {}

  /** What --history accepts, for messages. */
  static final String VALID =
      "valid: no value (the default folder under $WG1BENCH_HOME, default ~/.wg1bench) or a"
          + " jdbc:postgresql://HOST[:PORT]/DATABASE URL";

  /** Opens the history at a location, the default one under this process's home. */
  public static HistoryStore open(String location) throws IOException {
    return open(location, home(System.getenv()));
  }

  /**
   * Opens the history at a location; {@code home} is where the default one lives (tests give their
   * own).
   *
   * @throws UsageException when the location is none of the kinds a history can be
   * @throws NewerFormatException when the history was made by a newer wg1bench
   * @throws IOException when it cannot be reached or created
   */
  public static HistoryStore open(String location, Path home) throws IOException {
    check(location);
    if (location == null || location.isEmpty()) {
      return new FolderStore(home.resolve("history"));
    }
    return PostgresStore.open(location);
  }

  /** Fails on a location no history can be at, before anything runs. */
  public static void check(String location) {
    if (location == null || location.isEmpty()) {
      return;
    }
    if (!location.startsWith("jdbc:postgresql://") || location.length() <= 18) {
      throw new UsageException(
          "--history '" + TargetSpec.redact(location) + "' is not a history location; " + VALID);
    }
  }

  /**
   * The system property {@code wg1bench.home} (for a JVM that embeds wg1bench, and tests, whose
   * environment is fixed), else $WG1BENCH_HOME, else ~/.wg1bench.
   */
  public static Path home(Map<String, String> env) {
    String h = System.getProperty("wg1bench.home");
    if (h == null || h.isBlank()) {
      h = env.get("WG1BENCH_HOME");
    }
    if (h != null && !h.isBlank()) {
      return Path.of(h);
    }
    return Path.of(System.getProperty("user.home"), ".wg1bench");
  }

  /** Where a location's history is, for messages, without opening it. */
  public static String describe(String location, Path home) {
    return location == null || location.isEmpty()
        ? home.resolve("history").toString()
        : TargetSpec.redact(location);
  }
}
