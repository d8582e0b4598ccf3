package dev.wg1bench.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Failed ops and retries, counted (not normalized) so JMH's table shows them too. */
@AuxCounters(AuxCounters.Type.EVENTS)
@State(Scope.Thread)
public class Trouble {
  public long failed;
  public long retries;

  @Setup(Level.Iteration)
  public void clear() {
    failed = 0;
    retries = 0;
  }
}
