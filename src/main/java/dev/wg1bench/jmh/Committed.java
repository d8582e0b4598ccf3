package dev.wg1bench.jmh;

import dev.wg1bench.workload.OpCounts;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Successful ops for JMH's own table (--verbose) only, a view of the client's counts of the
 * iteration: JMH counts them through its iteration-end synchronisation and divides by the iteration
 * time, which over-counts with many clients. The result's tps comes from {@link MeasurementWindow}.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class Committed {
  private OpCounts counts = new OpCounts();

  /**
   * The op's client's counts of the iteration. Set by each op, not by a set-up taking the client:
   * JMH runs a state's set-up again for each state whose set-up takes it, which opened the
   * measurement window once per dependent.
   */
  void watch(OpCounts all) {
    counts = all;
  }

  public long ok() {
    return counts.ok;
  }
}
