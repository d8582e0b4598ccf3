package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.stats.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mechanism line on fixed figures: what it names, in which order, and how it says unknown. */
class ArmFiguresTest {
  static ArmFigures arm(Double rt, Double st, Double ms, Double rows, List<ArmFigures.Wait> waits) {
    return new ArmFigures(rt, st, ms, rows, 100.0, 200.0, waits);
  }

  @Test
  void theLargestRelativeDifferencesComeFirst() {
    ArmFigures nPlusOne =
        arm(
            10.0,
            10.0,
            0.19,
            10.0,
            List.of(
                new ArmFigures.Wait("Client:ClientRead", 0.71), new ArmFigures.Wait("CPU", 0.2)));
    ArmFigures anyQuery =
        arm(
            1.0,
            1.5,
            0.17,
            10.0,
            List.of(
                new ArmFigures.Wait("Client:ClientRead", 0.18), new ArmFigures.Wait("CPU", 0.6)));
    // round trips 10x, statements 6.7x, ClientRead 3.9x, CPU 3x, server ms 1.12x; rows and bytes
    // alike: the three largest, largest first
    assertEquals(
        "why: round trips per op 10.0 -> 1.0; statements per op 10.0 -> 1.5;"
            + " Client:ClientRead 71% -> 18%",
        ArmFigures.mechanism(nPlusOne, anyQuery));
  }

  @Test
  void aFigureNotCountedIsSaidSoNeverZero() {
    ArmFigures a = arm(2.0, 2.0, null, 1.0, null);
    ArmFigures b = arm(1.0, 2.0, 0.5, 1.0, null);
    String line = ArmFigures.mechanism(a, b);
    assertEquals(
        "why: round trips per op 2.0 -> 1.0; server ms per op not counted -> 0.50;"
            + " not counted: waits",
        line);
    assertFalse(line.contains(" 0.0"), line);
  }

  @Test
  void aZeroAgainstACountIsTheLargestDifference() {
    ArmFigures a = arm(1.0, 1.0, 0.2, 0.0, null);
    ArmFigures b = arm(1.0, 1.0, 0.2, 100.0, null);
    assertTrue(
        ArmFigures.mechanism(a, b).startsWith("why: rows per op 0.0 -> 100.0;"),
        ArmFigures.mechanism(a, b));
  }

  @Test
  void armsAlikeSayNoDifference() {
    ArmFigures a = arm(1.0, 1.0, 0.2, 1.0, List.of(new ArmFigures.Wait("CPU", 1.0)));
    assertEquals(
        "why: no difference per op (round trips per op 1.0, statements per op 1.0,"
            + " server ms per op 0.20)",
        ArmFigures.mechanism(a, a));
  }

  @Test
  void aWaitOnlyOneArmSampledIsAMeasuredZeroInTheOther() {
    ArmFigures a = arm(1.0, 1.0, 0.2, 1.0, List.of(new ArmFigures.Wait("CPU", 1.0)));
    ArmFigures b =
        arm(
            1.0,
            1.0,
            0.2,
            1.0,
            List.of(new ArmFigures.Wait("CPU", 0.5), new ArmFigures.Wait("Lock:tuple", 0.5)));
    assertEquals("why: Lock:tuple 0% -> 50%; CPU 100% -> 50%", ArmFigures.mechanism(a, b));
  }

  @Test
  void aWaitWithinTheSamplingsNoiseIsNoDifference() {
    ArmFigures a = arm(1.0, 1.0, 0.2, 1.0, List.of(new ArmFigures.Wait("CPU", 0.97)));
    ArmFigures b =
        arm(
            1.0,
            1.0,
            0.2,
            1.0,
            List.of(
                new ArmFigures.Wait("CPU", 0.98), new ArmFigures.Wait("IO:DataFileRead", 0.02)));
    // 0% -> 2% is a factor of 1 from the 5% floor: not a difference; 97% -> 98% is a small one
    assertEquals("why: CPU 97% -> 98%", ArmFigures.mechanism(a, b));
  }

  /** An advice result's figures and line survive its JSON, as {@code report} reads it back. */
  @Test
  void anAdviceResultsWhyReadsBackFromItsJson() throws Exception {
    ArmFigures a =
        arm(
            10.0,
            10.0,
            0.19,
            10.0,
            List.of(new ArmFigures.Wait("CPU", 0.9), new ArmFigures.Wait("IO:DataFileRead", 0.1)));
    ArmFigures b = arm(1.0, 1.0, null, 10.0, null);
    AdviceResult r =
        new AdviceResult(
            new AdviceResult.Claim("n", "c", "s", "higher", "tps", "b", "t", "local"),
            new AdviceResult.Blocks(
                "measured",
                null,
                2,
                List.of(),
                List.of(),
                1.0,
                1.0,
                List.of(),
                0,
                null,
                null,
                null),
            new AdviceResult.Estimate(1.0, 0.9, 1.1, 0.5, 0.5, 0.95, 0.9, 1.1, 5.0, 0.05),
            new AdviceResult.SideEffects(null, null, 0, 0),
            new AdviceResult.Finding(Verdict.Kind.INCONCLUSIVE, "inconclusive", null, null),
            new AdviceResult.Why(a, b, ArmFigures.mechanism(a, b)));
    String json = dev.wg1bench.json.Json.MAPPER.writeValueAsString(r);
    AdviceResult back = dev.wg1bench.json.Json.MAPPER.readValue(json, AdviceResult.class);
    assertEquals(r.why(), back.why(), json);
    assertEquals(
        "why: round trips per op 10.0 -> 1.0; statements per op 10.0 -> 1.0;"
            + " server ms per op 0.19 -> not counted; CPU 90% -> not counted",
        dev.wg1bench.json.Json.MAPPER.readTree(json).get("mechanism").asText());
  }

  @Test
  void noArmCountedAnything() {
    assertEquals(
        "why: not counted: round trips per op, statements per op, server ms per op, rows per op,"
            + " bytes sent per op, bytes received per op, waits",
        ArmFigures.mechanism(ArmFigures.NONE, null));
  }
}
