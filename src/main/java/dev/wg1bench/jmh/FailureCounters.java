package dev.wg1bench.jmh;

import dev.wg1bench.workload.OpCounts;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Failed ops and retries, counted (not normalized) so JMH's table shows them too: a view of the
 * client's own counts of the iteration, never a counter of its own.
 */
@AuxCounters(AuxCounters.Type.EVENTS)
@State(Scope.Thread)
public class FailureCounters {
  private OpCounts counts = new OpCounts();

  /**
   * The op's client's counts of the iteration. Set by each op, not by a set-up taking the client:
   * JMH runs a state's set-up again for each state whose set-up takes it, which opened the
   * measurement window once per dependent.
   */
  void watch(OpCounts all) {
    counts = all;
  }

  public long failed() {
    return counts.failed;
  }

  public long retries() {
    return counts.retries;
  }
}
