package dev.wg1bench.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Successful ops for JMH's own table (--verbose) only: JMH counts them through its iteration-end
 * synchronisation and divides by the iteration time, which over-counts with many clients. The
 * result's tps comes from {@link MeasurementWindow}.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class Committed {
  public long ok;

  /** Iteration level: JMH reads aux counters per iteration, so they restart each time. */
  @Setup(Level.Iteration)
  public void clear() {
    ok = 0;
  }
}
