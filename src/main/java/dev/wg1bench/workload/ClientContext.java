package dev.wg1bench.workload;

import dev.wg1bench.script.PgbenchRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a client knows about its place in the run.
 *
 * @param clientId 0-based index of this client (pgbench's :client_id)
 * @param clients number of clients in the run (:nclients)
 * @param scale pgbench scale (:scale)
 * @param randomSeed the run's seed; each client derives its own stream from it
 * @param maxTries tries for ops failing with serialization failure or deadlock
 * @param exitOnError give up the run at the first failed op
 * @param defines --define variables
 * @param batchSize rows per op of the insert workloads
 * @param perCommand time each command of a script (pgbench -r), see {@link ClientSession#opParts()}
 */
public record ClientContext(
    int clientId,
    int clients,
    int scale,
    long randomSeed,
    int maxTries,
    boolean exitOnError,
    Map<String, String> defines,
    int batchSize,
    boolean perCommand) {

  /**
   * A seed of this client's own for the client machinery's streams (arrivals, jitter). The
   * workloads' streams are {@link dev.wg1bench.script.PgbenchRandom#forClient}, pgbench's
   * derivation, shared by the scripts and the insert variants so they insert the same rows.
   */
  public long clientSeed() {
    return randomSeed ^ (0x9E3779B97F4A7C15L * (clientId + 1));
  }

  /** Variables every script may use without defining them. */
  public static final Set<String> BUILTIN_VARIABLES =
      Set.of("scale", "client_id", "nclients", "default_seed", "random_seed");

  /** Built-ins and defines by name. */
  public Map<String, Object> variables() {
    Map<String, Object> v = new LinkedHashMap<>();
    // defines stay text; the script's slots turn numeric ones into int or double once
    v.putAll(defines);
    // as pgbench, a -D of a built-in wins over the computed value
    v.putIfAbsent("scale", (long) scale);
    v.putIfAbsent("client_id", (long) clientId);
    v.putIfAbsent("nclients", (long) clients);
    v.putIfAbsent("random_seed", randomSeed);
    // pgbench's default_seed (hash() and permute() without a seed): drawn from the run seed's base
    // sequence after the clients' seeds, as pgbench 15 draws it, so the same seed gives the same
    // hash() and permute() values as there
    v.putIfAbsent("default_seed", PgbenchRandom.defaultSeed(randomSeed, clients));
    return v;
  }
}
