package dev.wg1bench.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.RttSweepRow;
import dev.wg1bench.result.RttSweepRow.Cell;
import dev.wg1bench.stats.Verdict.Kind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** advise --rtt's per-RTT report, on constructed results: its shape and what it calls a change. */
class RttSweepTest {
  private static final List<String> RTTS = List.of("0", "0.5ms", "2ms");

  @Test
  void eachArmOfAClaimAtAnRttCarriesThatRtt() {
    Advice a =
        new Advice("n1", "JOIN beats N+1", "seed", "higher", "tps", "-c 1", "-f a", "-f b", 0);
    Advice at = RttSweep.at(a, "0.5ms");
    assertEquals("n1@0.5ms", at.name());
    assertEquals("-c 1 --rtt 0.5ms", at.common());
    assertEquals("-f a", at.baseline());
    assertEquals("-f b", at.treatment());
  }

  @Test
  void oneRowPerClaimAndTargetWithACellPerRttInTheOrderGiven() {
    List<AdviceResult> results = new ArrayList<>();
    for (String target : List.of("local", "other")) {
      // in run order, which is not --rtt's order
      results.add(result("batch@2ms", target, Kind.CONFIRMS, 3.0, 2.8, 3.2));
      results.add(result("batch@0", target, Kind.CONFIRMS, 1.5, 1.4, 1.6));
      results.add(result("batch@0.5ms", target, Kind.CONFIRMS, 2.0, 1.9, 2.1));
      results.add(result("sync@0", target, Kind.INCONCLUSIVE, 1.0, 0.9, 1.1));
    }
    results.add(result("aa", "local", Kind.EQUIVALENT, 1.0, 0.99, 1.01));

    List<RttSweepRow> rows = RttSweep.rows(RTTS, results);

    assertEquals(
        List.of("batch local", "sync local", "batch other", "sync other"),
        rows.stream().map(r -> r.advice() + " " + r.target()).toList());
    assertEquals(RTTS, rows.get(0).byRtt().stream().map(Cell::rtt).toList());
    assertEquals(List.of(1.5, 2.0, 3.0), rows.get(0).byRtt().stream().map(Cell::ratio).toList());
    // a claim measured at one RTT only is shown at the others as not measured, not left out
    assertEquals(
        Arrays.asList(Kind.INCONCLUSIVE, null, null),
        rows.get(1).byRtt().stream().map(Cell::verdict).toList());
    assertEquals(2, rows.get(0).changes().size());
    assertTrue(rows.get(0).changes().stream().allMatch(s -> s.startsWith("effect grows")));
  }

  @Test
  void aVerdictThatDiffersFromOneRttToTheNextIsAFlip() {
    List<String> c =
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.INCONCLUSIVE, 1.05, 0.95, 1.16),
                new Cell("0.5ms", Kind.INCONCLUSIVE, 1.10, 0.98, 1.23),
                new Cell("2ms", Kind.CONFIRMS, 1.20, 1.12, 1.29)));
    assertEquals(List.of("verdict flips from inconclusive at rtt 0.5ms to confirms at rtt 2ms"), c);
  }

  @Test
  void aRatioOutsideTheShorterRttsIntervalGrowsOrShrinks() {
    assertEquals(
        List.of(
            "effect grows from 2.800 [2.500, 3.100] at rtt 0 to 19.000 at rtt 1ms, beyond its"
                + " interval"),
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.CONFIRMS, 2.8, 2.5, 3.1),
                new Cell("1ms", Kind.CONFIRMS, 19.0, 17.0, 21.0))));
    // a latency claim (ratio below 1) grows downwards
    assertOne(
        "effect grows",
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.CONFIRMS, 0.8, 0.75, 0.85),
                new Cell("2ms", Kind.CONFIRMS, 0.3, 0.28, 0.33))));
    assertOne(
        "effect shrinks",
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.CONFIRMS, 1.5, 1.4, 1.6),
                new Cell("2ms", Kind.CONFIRMS, 1.1, 1.0, 1.2))));
  }

  @Test
  void aMoveWithinTheIntervalOrWithoutOneIsNoChange() {
    assertEquals(
        List.of(),
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.CONFIRMS, 1.5, 1.3, 1.7),
                new Cell("2ms", Kind.CONFIRMS, 1.65, 1.6, 1.7))));
    // no interval at the shorter RTT (fewer than 2 blocks): nothing to measure a move against
    assertEquals(
        List.of(),
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.INCONCLUSIVE, 1.5, null, null),
                new Cell("2ms", Kind.INCONCLUSIVE, 9.0, 8.0, 10.0))));
    // a claim not measured at an RTT is neither a flip nor a move
    assertEquals(
        List.of(),
        RttSweep.changes(
            List.of(
                new Cell("0", Kind.CONFIRMS, 1.5, 1.4, 1.6),
                new Cell("2ms", null, null, null, null))));
  }

  @Test
  void theConsoleTableNamesEachClaimRttAndChange() {
    List<RttSweepRow> rows =
        RttSweep.rows(
            RTTS,
            List.of(
                result("batch@0", "local", Kind.INCONCLUSIVE, 1.02, 0.97, 1.07),
                result("batch@0.5ms", "local", Kind.CONFIRMS, 1.4, 1.3, 1.5),
                result("batch@2ms", "local", Kind.CONFIRMS, 1.45, 1.35, 1.55)));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    RttSweep.print(new PrintStream(b, true, StandardCharsets.UTF_8), RTTS, rows);
    String out = b.toString(StandardCharsets.UTF_8);
    for (String s :
        List.of(
            "batch (local)",
            "rtt 0.5ms",
            "[1.300, 1.500]",
            "verdict flips from inconclusive at rtt 0 to confirms at rtt 0.5ms",
            "effect grows from 1.020")) {
      assertTrue(out.contains(s), s + " in\n" + out);
    }
    // 0.5ms -> 2ms moved within 0.5ms's interval: no second change
    assertEquals(2, rows.get(0).changes().size());
  }

  private static void assertOne(String start, List<String> changes) {
    assertEquals(1, changes.size(), changes.toString());
    assertTrue(changes.get(0).startsWith(start), changes.get(0));
  }

  private static AdviceResult result(
      String name, String target, Kind verdict, double ratio, double low, double high) {
    return new AdviceResult(
        new AdviceResult.Claim(name, "claim", "seed", "higher", "tps", "b", "t", target),
        new AdviceResult.Blocks(
            "measured", null, 5, List.of(), List.of(), 1.0, 1.0, List.of(), 0, null, null, null),
        new AdviceResult.Estimate(ratio, low, high, 0.01, 0.01, 0.95, low, high, 5.0, 0.05),
        new AdviceResult.SideEffects(null, null, 0, 0),
        new AdviceResult.Finding(verdict, verdict.label(), null, null),
        null);
  }
}
