package dev.wg1bench.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The matrix: its schedule, what counts as a sweep, its limits; the plan's derived values. */
class MatrixPlanTest {
  private static final TargetSpec A =
      new TargetSpec(
          "a", new TargetSpec.Kind("EXTERNAL"), "jdbc:postgresql://a/d", null, null, null);
  private static final TargetSpec B =
      new TargetSpec(
          "b", new TargetSpec.Kind("EXTERNAL"), "jdbc:postgresql://b/d", null, null, null);

  private static RunPlan plan(int clients, List<TargetSpec> targets) {
    return new PlanDraft()
        .workload("custom", List.of(new ScriptSource("a.sql", "SELECT 1;", 1)))
        .targets(targets)
        .timing(Duration.ZERO, Duration.ofSeconds(1), 1, 0, null)
        .output(Path.of("r.json"))
        .set(Knobs.CLIENTS, clients)
        .build();
  }

  private static List<Matrix.Point> points(int n) {
    List<Matrix.Point> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(new Matrix.Point(plan(i, List.of(A)), A));
    }
    return out;
  }

  @Test
  void sequentialScheduleIsRoundAfterRound() {
    Matrix m =
        new Matrix(points(2), 2, Matrix.Order.SEQUENTIAL, 0, Matrix.BetweenTrials.AUTO, null);
    assertEquals(
        List.of(
            new Matrix.TrialRef(0, 1),
            new Matrix.TrialRef(1, 1),
            new Matrix.TrialRef(0, 2),
            new Matrix.TrialRef(1, 2)),
        m.schedule());
  }

  @Test
  void randomScheduleIsAPermutationReproducibleFromItsSeed() {
    Matrix a = new Matrix(points(5), 3, Matrix.Order.RANDOM, 7, Matrix.BetweenTrials.AUTO, null);
    Matrix b = new Matrix(points(5), 3, Matrix.Order.RANDOM, 7, Matrix.BetweenTrials.AUTO, null);
    Matrix seq =
        new Matrix(points(5), 3, Matrix.Order.SEQUENTIAL, 7, Matrix.BetweenTrials.AUTO, null);
    assertEquals(a.schedule(), b.schedule());
    assertEquals(new HashSet<>(seq.schedule()), new HashSet<>(a.schedule()));
    assertEquals(15, a.schedule().size());
    assertNotEquals(seq.schedule(), a.schedule());
  }

  @Test
  void oneTrialPerTargetIsNotASweep() {
    RunPlan p = plan(4, List.of(A, B));
    Matrix m = Matrix.of(p);
    assertFalse(m.isSweep());
    assertEquals(List.of(A, B), m.targets());
    assertTrue(
        new Matrix(m.points(), 2, Matrix.Order.RANDOM, 1, Matrix.BetweenTrials.AUTO, null)
            .isSweep());
  }

  @Test
  void limitsAreUsageErrors() {
    assertEquals(
        "--repeat must be between 1 and 1000, got 0",
        assertThrows(
                UsageException.class,
                () ->
                    new Matrix(
                        points(1), 0, Matrix.Order.RANDOM, 1, Matrix.BetweenTrials.AUTO, null))
            .getMessage());
    assertEquals(
        "nothing to run: the swept options give no point",
        assertThrows(
                UsageException.class,
                () ->
                    new Matrix(
                        List.of(), 1, Matrix.Order.RANDOM, 1, Matrix.BetweenTrials.AUTO, null))
            .getMessage());
  }

  @Test
  void connectionsArePoolOrClients() {
    RunPlan p = plan(8, List.of(A));
    assertEquals(8, p.connections());
    assertFalse(p.pooled());
    RunPlan pooled =
        new PlanDraft()
            .workload("custom", p.scripts())
            .targets(List.of(A))
            .timing(Duration.ZERO, Duration.ofSeconds(1), 1, 0, null)
            .set(Knobs.CLIENTS, 8)
            .set(Knobs.POOL_SIZE, 2)
            .build();
    assertEquals(2, pooled.connections());
    assertTrue(pooled.pooled());
    assertEquals(Map.of(), pooled.sessionSettings());
  }
}
