package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.UsageException;
import dev.wg1bench.report.ReportFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MergeTest {
  private static AgentRun.Part part(String start, String end) {
    return new AgentRun.Part(1, Map.of(), 1, start, start, end, 0, 0, null, null, null, null);
  }

  @Test
  void theCommonWindowAddsOnlyTheAgentsMisalignment() {
    // two agents, 5 x 2 s each with JMH's pauses inside their spans (10.4 s), 100 ms apart
    List<AgentRun.Part> w =
        List.of(
            part("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:10.400Z"),
            part("2026-01-01T00:00:00.100Z", "2026-01-01T00:00:10.500Z"));
    assertEquals(10.1, Merge.commonWindow(w, 10.0), 1e-9);
    // one iteration: exactly the union
    List<AgentRun.Part> one =
        List.of(
            part("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:10.000Z"),
            part("2026-01-01T00:00:00.250Z", "2026-01-01T00:00:10.250Z"));
    assertEquals(10.25, Merge.commonWindow(one, 10.0), 1e-9);
    assertEquals(7.0, Merge.commonWindow(List.of(), 7.0), 1e-9);
  }

  private static BenchmarkRun agent(String runId, int count, int index) {
    BenchmarkRun r = ReportFixtures.run();
    // an agent has one target
    List<TrialResult> local = r.trials().stream().filter(t -> t.target().equals("local")).toList();
    AgentRun.Member m =
        new AgentRun.Member(index, "h" + index, 1, 0, 1, 0, 0, ReportFixtures.parts(local));
    return r.withAgents(
        new AgentRun(runId, count, 3, List.of(m), List.of()), local, Summaries.of(local));
  }

  @Test
  void onlyOneRunsAgentsMergeEachOnce() {
    UsageException notAgent =
        assertThrows(UsageException.class, () -> Merge.of(List.of(ReportFixtures.run()), Map.of()));
    assertTrue(
        notAgent.getMessage().contains("was not run with --agent I/N"), notAgent.getMessage());
    UsageException other =
        assertThrows(
            UsageException.class,
            () -> Merge.of(List.of(agent("a", 3, 0), agent("b", 3, 1)), Map.of()));
    assertTrue(other.getMessage().contains("is of run b with 3 agents"), other.getMessage());
    UsageException twice =
        assertThrows(
            UsageException.class,
            () -> Merge.of(List.of(agent("a", 3, 0), agent("a", 3, 0)), Map.of()));
    assertEquals("merge: agent 0 is given twice", twice.getMessage());
  }

  @Test
  void agentsWithoutAResultAreListedWithWhy() {
    BenchmarkRun m =
        Merge.of(List.of(agent("a", 3, 0), agent("a", 3, 2)), Map.of(1, "failed: no space left"));
    assertEquals(List.of(new AgentRun.Missing(1, "failed: no space left")), m.agents().missing());
    assertEquals(2, m.agents().members().size());
    // summed per point: each fixture trial appears once per agent
    BenchmarkRun one = agent("a", 3, 0);
    assertEquals(one.trials().size(), m.trials().size());
    assertEquals(
        2 * one.trials().get(0).measurement().ops(), m.trials().get(0).measurement().ops());
  }
}
