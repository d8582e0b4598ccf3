package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.json.Json;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.workload.DataCheck;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The result model: summaries per point, its JSON round trip, a check added to a trial. */
class ResultModelTest {
  @TempDir Path dir;

  @Test
  void summariesFoldTheRepeatsOfEachPoint() {
    BenchmarkRun run = ReportFixtures.run();
    List<PointSummary> summaries = Summaries.of(run.trials());
    Map<Map<String, String>, List<TrialResult>> byPoint =
        run.trials().stream().collect(Collectors.groupingBy(TrialResult::point));
    assertEquals(byPoint.size(), summaries.size());
    for (PointSummary s : summaries) {
      List<TrialResult> ts = byPoint.get(s.point());
      double[] tps = ts.stream().mapToDouble(t -> t.measurement().tps()).sorted().toArray();
      assertEquals(ts.size(), s.trials());
      assertEquals(tps[0], s.minTps());
      assertEquals(tps[tps.length - 1], s.maxTps());
      assertEquals(Summaries.median(tps), s.medianTps());
      assertTrue(s.minTps() <= s.medianTps() && s.medianTps() <= s.maxTps());
      assertEquals(ts.stream().mapToLong(t -> t.measurement().failedOps()).sum(), s.failedOps());
      assertEquals(
          ts.stream().mapToLong(t -> t.measurement().totalFailedOps()).sum(), s.totalFailedOps());
      assertEquals(ts.stream().mapToLong(t -> t.measurement().retries()).sum(), s.retries());
    }
  }

  @Test
  void medianOfOddEvenAndNoValues() {
    assertEquals(2.0, Summaries.median(new double[] {3, 1, 2}));
    assertEquals(2.5, Summaries.median(new double[] {4, 1, 3, 2}));
    assertTrue(Double.isNaN(Summaries.median(new double[0])));
    double[] v = {5, 1};
    Summaries.median(v);
    assertEquals("[5.0, 1.0]", Arrays.toString(v), "the caller's array is left as it was");
  }

  @Test
  void aRunSurvivesItsJsonRoundTrip() {
    BenchmarkRun run = ReportFixtures.run();
    Path f = dir.resolve("run.json");
    Json.write(run, f);
    BenchmarkRun back = Json.read(f, BenchmarkRun.class);
    assertEquals(run.trials().size(), back.trials().size());
    assertEquals(Json.MAPPER.valueToTree(run), Json.MAPPER.valueToTree(back));
  }

  @Test
  void aCheckIsAddedWithoutChangingTheTrial() {
    TrialResult t = ReportFixtures.run().trials().get(0);
    DataCheck.Outcome failed = new DataCheck.Outcome(false, List.of(), List.of("rows missing"));
    TrialResult c = t.withCheck(failed);
    assertEquals(failed, c.check());
    assertFalse(c.check().passed());
    assertEquals(t, c.withCheck(t.check()));
  }
}
