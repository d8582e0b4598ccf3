package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the workload itself is given.
 *
 * @param scale pgbench scale; null = detect from pgbench_branches (external) or the embedded
 *     default
 * @param defines {@code --define NAME=VALUE} script variables
 * @param batchSize rows per op of the batch, multi-row and COPY insert workloads
 * @param randomSeed seed of the clients' random generators (recorded so a run can be repeated)
 * @param fillfactor fillfactor of the pgbench tables when wg1bench creates them (embedded server,
 *     --between-trials reinit), or null for 100
 * @param tableOptions storage parameters set on the workload's tables before each trial (e.g.
 *     autovacuum_enabled=off), reset when a later trial does not set them
 * @param classpath where a workload class of the user's is loaded from (--classpath), in every JVM
 *     that runs clients; empty for the tool's own workloads
 */
public record WorkloadKnobs(
    Integer scale,
    Map<String, String> defines,
    int batchSize,
    long randomSeed,
    Integer fillfactor,
    Map<String, String> tableOptions,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> classpath) {

  public WorkloadKnobs(Integer scale, Map<String, String> defines, int batchSize, long randomSeed) {
    this(scale, defines, batchSize, randomSeed, null, Map.of(), List.of());
  }

  /** Rows per op of the insert workloads unless --batch-size says otherwise (the blog's 8). */
  public static final int DEFAULT_BATCH_SIZE = 8;

  /** The largest pgbench scale a run or init accepts (--scale). */
  public static final int MAX_SCALE = 1_000_000;

  public WorkloadKnobs {
    defines = Collections.unmodifiableMap(new LinkedHashMap<>(defines));
    tableOptions = Collections.unmodifiableMap(new LinkedHashMap<>(tableOptions));
    classpath = classpath == null ? List.of() : List.copyOf(classpath);
  }

  void validate() {
    if (scale != null) {
      Checks.range("--scale", scale, 1, MAX_SCALE);
    }
    for (String k : defines.keySet()) {
      if (!k.matches("[A-Za-z0-9_]+")) {
        throw new UsageException(
            "--define '" + k + "' is not a variable name (letters, digits and _)");
      }
    }
  }
}
