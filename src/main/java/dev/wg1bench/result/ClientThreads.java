package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.wg1bench.fork.ForkReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the clients ran on, and for virtual threads what pinned them to their carriers (JFR
 * jdk.VirtualThreadPinned, counted in the JVM that ran the clients). The pin figures are null for
 * platform threads.
 *
 * @param kind platform or virtual, as the clients' own threads were (not only as asked)
 * @param runtime the Java runtime that ran the clients, e.g. 25.0.1+8-LTS
 * @param pinned pinned events inside the measurement windows
 * @param pinnedMs time those pins held their carrier, milliseconds
 * @param pinnedAll pinned events over the whole trial, set-up and warmup included
 * @param carriersPeak carrier threads alive at most (more than the parallelism: the scheduler made
 *     up for carriers blocked while pinned)
 * @param carrierParallelism carriers the scheduler keeps busy when none is pinned
 * @param pinSites the busiest pin sites (the first frame outside the JDK, "in" the JDK frame it
 *     blocked in) and their counts over the trial
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClientThreads(
    String kind,
    String runtime,
    Long pinned,
    Double pinnedMs,
    Long pinnedAll,
    Integer carriersPeak,
    Integer carrierParallelism,
    Map<String, Long> pinSites) {

  /** The forks' figures, summed (carriers: the largest); pins only when some fork counted them. */
  static ClientThreads of(List<ForkReport> forks) {
    String kind = null;
    Long pinned = null;
    long nanos = 0;
    Long all = null;
    Integer carriers = null;
    Integer parallelism = null;
    Map<String, Long> sites = null;
    for (ForkReport f : forks) {
      kind = kind == null || kind.equals(f.threads) ? f.threads : "mixed";
      if (f.pinned != null) {
        pinned = (pinned == null ? 0 : pinned) + f.pinned;
        nanos += f.pinnedNanos == null ? 0 : f.pinnedNanos;
        all = (all == null ? 0 : all) + f.pinnedAll;
        carriers = carriers == null ? f.carriersPeak : Math.max(carriers, f.carriersPeak);
        parallelism = f.carrierParallelism;
        if (sites == null) {
          sites = new LinkedHashMap<>();
        }
        Map<String, Long> into = sites;
        f.pinSites.forEach((k, n) -> into.merge(k, n, Long::sum));
      }
    }
    return new ClientThreads(
        kind,
        Runtime.version().toString(),
        pinned,
        pinned == null ? null : nanos / 1e6,
        all,
        carriers,
        parallelism,
        sites);
  }

  /** Agents' figures (each ran its own JVM), summed as the forks' are. */
  static ClientThreads merge(List<ClientThreads> parts) {
    ClientThreads first = null;
    String kind = null;
    Long pinned = null;
    double ms = 0;
    Long all = null;
    Integer carriers = null;
    Map<String, Long> sites = null;
    for (ClientThreads t : parts) {
      if (t == null) {
        continue;
      }
      first = first == null ? t : first;
      kind = kind == null || kind.equals(t.kind) ? t.kind : "mixed";
      if (t.pinned != null) {
        pinned = (pinned == null ? 0 : pinned) + t.pinned;
        ms += t.pinnedMs;
        all = (all == null ? 0 : all) + t.pinnedAll;
        carriers = carriers == null ? t.carriersPeak : Math.max(carriers, t.carriersPeak);
        if (sites == null) {
          sites = new LinkedHashMap<>();
        }
        Map<String, Long> into = sites;
        t.pinSites.forEach((k, n) -> into.merge(k, n, Long::sum));
      }
    }
    if (first == null) {
      return null;
    }
    return new ClientThreads(
        kind,
        first.runtime,
        pinned,
        pinned == null ? null : ms,
        all,
        carriers,
        first.carrierParallelism,
        sites);
  }
}
