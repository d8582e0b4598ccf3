package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ExternalTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every knob that sweeps, given two values on the command line, gives two points whose labels tell
 * them apart: a new sweepable knob must come with a sample here, and can never sweep unlabelled.
 */
class KnobSweepContractTest {
  /** Two values of each sweepable knob, and what else the command line needs for them. */
  private static final Map<String, List<String>> SAMPLES =
      Map.ofEntries(
          Map.entry("--workload", List.of("--workload", "tpcb,select_only")),
          Map.entry("--clients", List.of("--workload", "tpcb", "--clients", "1,2")),
          Map.entry(
              "--query-mode", List.of("--workload", "tpcb", "--query-mode", "simple,prepared")),
          Map.entry(
              "--isolation",
              List.of("--workload", "tpcb", "--isolation", "read_committed,serializable")),
          Map.entry(
              "--pool-size", List.of("--workload", "tpcb", "--clients", "4", "--pool-size", "1,2")),
          Map.entry("--batch-size", List.of("--workload", "insert_batch", "--batch-size", "4,8")),
          Map.entry("--set", List.of("--workload", "tpcb", "--set", "work_mem=4MB,8MB")),
          Map.entry(
              "--jdbc-property",
              List.of("--workload", "tpcb", "--jdbc-property", "ApplicationName=a,b")),
          Map.entry("--fillfactor", List.of("--workload", "tpcb", "--fillfactor", "90,100")),
          Map.entry(
              "--table-option",
              List.of("--workload", "tpcb", "--table-option", "autovacuum_enabled=on,off")),
          Map.entry(
              "--prepare-threshold",
              List.of("--workload", "tpcb", "-M", "extended", "--prepare-threshold", "1,5")),
          Map.entry(
              "--binary-transfer",
              List.of("--workload", "tpcb", "--binary-transfer", "true,false")),
          Map.entry("--fetch-size", List.of("--workload", "tpcb", "--fetch-size", "10,100")),
          Map.entry(
              "--statement-timeout", List.of("--workload", "tpcb", "--statement-timeout", "1s,0")),
          Map.entry("--threads", List.of("--workload", "tpcb", "--threads", "platform,virtual")),
          Map.entry("--rtt", List.of("--workload", "tpcb", "--rtt", "0,0.5ms")));

  @Test
  void everySweepableKnobLabelsItsPoints() {
    TargetSpec t = ExternalTarget.spec("t", "jdbc:postgresql://h/d", "u");
    for (Knob<?> k : Knobs.ALL) {
      if (!k.sweeps()) {
        continue;
      }
      if (k == Knobs.THREADS && Runtime.version().feature() < 21) {
        // virtual threads are refused below Java 21: ThreadsKnobTest sweeps it on a 21+ runtime
        continue;
      }
      List<String> args = SAMPLES.get(k.option());
      assertNotNull(args, "no sample values for sweepable knob " + k.option());
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of("--forks", "0", "--output", "unused.json"));
      var cl = Main.commandLine();
      cl.parseArgs(all.toArray(new String[0]));
      Main main = cl.getCommand();
      Matrix m = PlanFactory.build(main.run, List.of(t));
      assertEquals(2, m.points().size(), k.option() + " should give two points");
      assertNotEquals(
          k.labels(m.points().get(0).plan()),
          k.labels(m.points().get(1).plan()),
          k.option() + " must label its points apart");
    }
  }
}
