package dev.wg1bench.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How each client session behaves: the app-side knobs that live in the connection.
 *
 * @param isolation isolation level, or null for the workload's own default
 * @param queryMode pgbench -M protocol
 * @param settings {@code --set NAME=VALUE}, applied with set_config on every connection
 * @param maxTries tries per op for serialization failures and deadlocks (1 = no retry)
 * @param exitOnError stop the run at the first op that fails after its tries
 * @param continueOnError keep a client running after an error that won't heal (a syntax error, a
 *     missing table, a refused connection at the start), which otherwise stops it as pgbench does
 * @param exitOnAbort end the whole run as soon as one client is stopped that way (pgbench
 *     --exit-on-abort); serialization failures and deadlocks stop no client, so not the run either
 */
public record SessionKnobs(
    Isolation isolation,
    QueryMode queryMode,
    Map<String, String> settings,
    int maxTries,
    boolean exitOnError,
    boolean continueOnError,
    boolean exitOnAbort) {
  /** Tries per op when nobody says, as pgbench: 1, no retry; every front reads it from here. */
  public static final int DEFAULT_MAX_TRIES = 1;

  public SessionKnobs(
      Isolation isolation,
      QueryMode queryMode,
      Map<String, String> settings,
      int maxTries,
      boolean exitOnError,
      boolean continueOnError) {
    this(isolation, queryMode, settings, maxTries, exitOnError, continueOnError, false);
  }

  public SessionKnobs(
      Isolation isolation,
      QueryMode queryMode,
      Map<String, String> settings,
      int maxTries,
      boolean exitOnError) {
    this(isolation, queryMode, settings, maxTries, exitOnError, false, false);
  }

  public SessionKnobs {
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }

  void validate() {
    Checks.range("--max-tries", maxTries, 1, 1_000_000);
    if (exitOnAbort && continueOnError) {
      throw new UsageException(
          "--exit-on-abort and --continue-on-error exclude each other: with --continue-on-error no"
              + " client is ever stopped");
    }
  }
}
