package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.TrialResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A result covers every trial: none is dropped, and a one-trial accessor never picks one. */
class ResultTrialsTest {
  @Test
  void everyTrialIsListedWithItsTargetAndFigures() {
    BenchmarkRun run = ReportFixtures.run();
    List<Trial> trials = EngineRecords.result(run).trials();
    assertEquals(run.trials().size(), trials.size());
    for (int i = 0; i < trials.size(); i++) {
      TrialResult t = run.trials().get(i);
      assertEquals(t.target(), trials.get(i).target());
      assertEquals(t.point(), trials.get(i).point());
      assertEquals(t.measurement().tps(), trials.get(i).tps());
      assertEquals(t.measurement().failedOps(), trials.get(i).failedOps());
      assertEquals(t.measurement().latencyMs().p99(), trials.get(i).p99Ms());
    }
    assertTrue(trials.stream().map(Trial::target).distinct().count() > 1, "two targets in fixture");
  }

  @Test
  void aOneTrialAccessorRefusesSeveralTrialsNamingWhatToCall() {
    Wg1bench.Result r = EngineRecords.result(ReportFixtures.run());
    IllegalStateException e = assertThrows(IllegalStateException.class, r::tps);
    assertEquals(1, e.getMessage().lines().count());
    assertTrue(e.getMessage().contains("use trials().get(i).tps()"), e.getMessage());
    assertTrue(e.getMessage().contains("local") && e.getMessage().contains("remote"));
  }

  @Test
  void theJsonIsTheRunTheCommandLineWrites() throws Exception {
    BenchmarkRun run = ReportFixtures.run();
    String json = EngineRecords.result(run).json();
    BenchmarkRun back = dev.wg1bench.json.Json.MAPPER.readValue(json, BenchmarkRun.class);
    assertEquals(run.trials().size(), back.trials().size());
    assertEquals(run.trials().get(1).target(), back.trials().get(1).target());
  }
}
