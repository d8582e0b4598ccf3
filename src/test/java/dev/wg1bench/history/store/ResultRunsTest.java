package dev.wg1bench.history.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result files of every kind read as stored runs, their figures the result's own. */
class ResultRunsTest {
  @TempDir Path dir;

  private static final Path AGENT = Path.of("src/test/resources/golden/agent-run.json");

  @Test
  void oneAgentsPartIsRefusedItIsNotTheRun() {
    UsageException e = assertThrows(UsageException.class, () -> ResultRuns.read(AGENT, Map.of()));
    assertTrue(e.getMessage().contains("one agent's part of a run of 3 agents"), e.getMessage());
  }

  @Test
  void aSweepWithRepeatsGivesOneFigurePerPointAndMetricTheSummarysWhereItHasOne() throws Exception {
    ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(AGENT.toFile());
    tree.remove("agents");
    Path f = dir.resolve("sweep.json");
    Json.MAPPER.writeValue(f.toFile(), tree);
    StoredRun run = ResultRuns.read(f, Map.of("commit", "abc"));
    assertEquals("sweep", run.kind());
    assertEquals("abc", run.commit());
    assertEquals(f.toAbsolutePath().normalize().toString(), run.attributes().get("source"));
    assertEquals("0.1.0", run.attributes().get("wg1benchVersion"));
    assertEquals(Instant.parse("2025-06-01T10:00:20Z"), run.time(), "the first trial's start");
    for (JsonNode s : tree.get("summary")) {
      JsonNode p = s.get("point");
      String config =
          "tpcb_like clients="
              + p.get("clients").asText()
              + " queryMode="
              + p.get("queryMode").asText()
              + " isolation=default set.application_name=wg1 \"bench\", run @local";
      assertEquals(s.get("medianP99Ms").asDouble(), value(run, config, "p99"));
      assertEquals(s.get("medianP50Ms").asDouble(), value(run, config, "p50"));
      assertEquals(s.get("failedOps").asDouble(), value(run, config, "failedOps"));
      assertEquals(s.get("retries").asDouble(), value(run, config, "retries"));
      // tps: the mean of the repeats, with the Student interval over them
      double sum = 0;
      int n = 0;
      for (JsonNode t : tree.get("trials")) {
        if (t.get("point").equals(p)) {
          sum += t.get("measurement").get("tps").asDouble();
          n++;
        }
      }
      assertEquals(3, n);
      StoredMetric tps = metric(run, config, "tps");
      assertEquals(sum / n, tps.value(), 1e-9);
      assertTrue(tps.low() < tps.value() && tps.value() < tps.high(), tps.toString());
      assertEquals(tps.value() - tps.low(), tps.high() - tps.value(), 1e-6);
      assertTrue(
          tps.low() <= s.get("maxTps").asDouble() && tps.high() >= s.get("minTps").asDouble());
    }
    // the golden result has no serverCommitsPerSecond (null): absent here, never 0
    assertTrue(tree.get("trials").get(0).get("measurement").get("serverCommitsPerSecond").isNull());
    assertTrue(run.metrics().stream().noneMatch(m -> m.metric().equals("serverCommitsPerSec")));
    assertEquals(6 * 8, run.metrics().size(), "6 points, 7 metrics and the attempted ops each");
  }

  @Test
  void aSingleTrialKeepsItsOwnBatchMeansInterval() throws Exception {
    ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(AGENT.toFile());
    tree.remove("agents");
    com.fasterxml.jackson.databind.node.ArrayNode firsts = Json.MAPPER.createArrayNode();
    tree.get("trials")
        .forEach(
            t -> {
              if (t.get("repeat").asInt() == 1) {
                firsts.add(t);
              }
            });
    tree.set("trials", firsts);
    Path f = dir.resolve("single.json");
    Json.MAPPER.writeValue(f.toFile(), tree);
    StoredRun run = ResultRuns.read(f, Map.of());
    assertEquals(6, run.metrics().stream().filter(m -> m.metric().equals("tps")).count());
    for (JsonNode t : firsts) {
      JsonNode p = t.get("point");
      String config =
          "tpcb_like clients="
              + p.get("clients").asText()
              + " queryMode="
              + p.get("queryMode").asText()
              + " isolation=default set.application_name=wg1 \"bench\", run @local";
      JsonNode m = t.get("measurement");
      StoredMetric tps = metric(run, config, "tps");
      assertEquals(m.get("tps").asDouble(), tps.value());
      assertEquals(m.get("tps").asDouble() - m.get("tpsError").asDouble(), tps.low());
      assertEquals(m.get("tps").asDouble() + m.get("tpsError").asDouble(), tps.high());
      assertEquals(m.get("latencyMs").get("p99").asDouble(), value(run, config, "p99"));
      assertEquals(m.get("latencyMs").get("p999").asDouble(), value(run, config, "p99.9"));
      assertEquals(m.get("failedOps").asDouble(), value(run, config, "failedOps"));
    }
  }

  /**
   * A trial without its point (cut or edited by hand; "point": null) is of one point, no sweep:
   * stored under the result's workload, never a NullPointerException (a property test's sample).
   */
  @Test
  void aTrialWithoutItsPointIsOfOnePoint() throws Exception {
    ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(AGENT.toFile());
    tree.remove("agents");
    com.fasterxml.jackson.databind.node.ArrayNode one = Json.MAPPER.createArrayNode();
    one.add(tree.get("trials").get(0));
    ((ObjectNode) one.get(0)).putNull("point");
    tree.set("trials", one);
    Path f = dir.resolve("no-point.json");
    Json.MAPPER.writeValue(f.toFile(), tree);
    StoredRun run = ResultRuns.read(f, Map.of());
    assertEquals(
        one.get(0).get("measurement").get("tps").asDouble(),
        metric(run, "tpcb_like @local", "tps").value());
    // a point naming no workload ("workload": null) keeps the result's
    ((ObjectNode) one.get(0)).putObject("point").putNull("workload");
    Json.MAPPER.writeValue(f.toFile(), tree);
    assertEquals(
        1,
        ResultRuns.read(f, Map.of()).metrics().stream()
            .filter(m -> m.metric().equals("tps") && m.config().startsWith("tpcb_like "))
            .count());
  }

  @Test
  void aReplayResultGivesItsThroughputUnderItsSettings() throws Exception {
    Path f = dir.resolve("replay.json");
    Files.writeString(
        f,
        """
        {"kind": "replay", "version": "0.1.0", "started": "2026-11-01T12:00:00Z",
         "target": "copy", "point": {}, "repeat": 1, "sequence": 1,
         "logs": ["/var/log/pg/app.csv"], "settings": {"speed": "max", "queryMode": "simple"},
         "throughput": {"wallSeconds": 10, "capturedSeconds": 60, "windowSeconds": 9.5,
           "statements": 950, "transactions": 190, "statementsPerSecond": 100.0,
           "transactionsPerSecond": 20.0},
         "server": {"version": "16.4", "versionNum": 160004, "settings": {}}}
        """);
    StoredRun run = ResultRuns.read(f, Map.of());
    assertEquals("replay", run.kind());
    assertEquals("16.4", run.attributes().get("serverVersion"));
    assertEquals(Instant.parse("2026-11-01T12:00:00Z"), run.time());
    String config = "replay app.csv speed=max queryMode=simple @copy";
    assertEquals(20.0, value(run, config, "tps"));
    assertEquals(100.0, value(run, config, "statementsPerSec"));
    assertEquals(2, run.metrics().size(), "a replay measures no latency percentiles: none stored");
  }

  @Test
  void aReplayResultWrittenBefore20261206GivesTheSameFigures() throws Exception {
    Path f = dir.resolve("old-replay.json");
    try (var in = getClass().getResourceAsStream("/replay/replay-before-2026-12-06.json")) {
      Files.copy(in, f);
    }
    StoredRun run = ResultRuns.read(f, Map.of());
    String config = "replay postgresql.csv speed=max queryMode=simple isolation=default @local";
    // the old throughput's transactionsPerSecond and statementsPerSecond, as before
    assertEquals(168.492, value(run, config, "tps"));
    assertEquals(1010.952, value(run, config, "statementsPerSec"));
  }

  @Test
  void aReplayResultOfTodayGivesTpsAndStatementsPerSec() throws Exception {
    Path f = dir.resolve("new-replay.json");
    Files.writeString(
        f,
        """
        {"kind": "replay", "version": "0.1.0", "started": "2026-12-06T12:00:00Z",
         "target": "copy", "point": {}, "repeat": 1, "sequence": 1,
         "logs": ["/var/log/pg/app.csv"], "settings": {"speed": "max"},
         "throughput": {"tps": 20.0, "tpsError": null,
           "tpsInterval": "none: one replay per trial", "attemptedOpsPerSecond": 20.0,
           "measuredSeconds": 9.5, "serverCommitsPerSecond": null},
         "pace": {"wallSeconds": 10, "capturedSeconds": 60, "statements": 950,
           "transactions": 190, "statementsPerSecond": 100.0}}
        """);
    StoredRun run = ResultRuns.read(f, Map.of());
    String config = "replay app.csv speed=max @copy";
    assertEquals(20.0, value(run, config, "tps"));
    assertEquals(100.0, value(run, config, "statementsPerSec"));
  }

  @Test
  void aFileThatIsNotAResultIsNamedInOneLine() throws Exception {
    Path other = dir.resolve("other.json");
    Files.writeString(other, "{\"name\": \"not a result\"}");
    Path text = dir.resolve("notes.json");
    Files.writeString(text, "hello");
    Path list = dir.resolve("list.json");
    Files.writeString(list, "[1, 2]");
    for (Path f : List.of(other, text, list, dir.resolve("missing.json"), dir)) {
      UsageException e = assertThrows(UsageException.class, () -> ResultRuns.read(f, Map.of()));
      assertTrue(e.getMessage().startsWith(f.toString() + ": "), e.getMessage());
      assertTrue(e.getMessage().contains("expected the JSON result of a wg1bench"), e.getMessage());
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
  }

  @Test
  void ciVariablesAndTheUsersAttributesWinOverGit() throws Exception {
    Map<String, String> github =
        Map.of(
            "GITHUB_ACTIONS", "true",
            "GITHUB_SHA", "0123abc",
            "GITHUB_REF_NAME", "feature",
            "GITHUB_RUN_ID", "42");
    Map<String, String> a = RunAttributes.collect(dir, github, Map.of());
    assertEquals("0123abc", a.get("commit"));
    assertEquals("feature", a.get("branch"));
    assertEquals("42", a.get("build"));
    assertEquals("github-actions", a.get("ci"));
    Map<String, String> gitlab =
        Map.of("GITLAB_CI", "true", "CI_COMMIT_SHA", "fff", "CI_PIPELINE_ID", "7");
    assertEquals("gitlab", RunAttributes.collect(dir, gitlab, Map.of()).get("ci"));
    assertEquals("7", RunAttributes.collect(dir, gitlab, Map.of()).get("build"));
    Map<String, String> user = RunAttributes.collect(dir, github, Map.of("commit", "mine"));
    assertEquals("mine", user.get("commit"));
    // outside a repository and CI: no commit, not an empty one
    Map<String, String> none = RunAttributes.collect(dir, Map.of("BUILD_NUMBER", "3"), Map.of());
    assertFalse(none.containsKey("commit"), none.toString());
    assertFalse(none.containsKey("ci"), "BUILD_NUMBER alone is not Jenkins: " + none);
  }

  @Test
  void gitsCommitAndBranchInsideARepository() throws Exception {
    Path repo = dir.resolve("repo");
    Files.createDirectories(repo);
    git(repo, "init", "-q", "-b", "trunk");
    Files.writeString(repo.resolve("a"), "a");
    git(repo, "add", "a");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "a");
    String head = RunAttributes.git(repo, "rev-parse", "HEAD");
    assertTrue(head != null && head.matches("[0-9a-f]{40}"), head);
    Map<String, String> a = RunAttributes.collect(repo, Map.of(), Map.of());
    assertEquals(head, a.get("commit"));
    assertEquals("trunk", a.get("branch"));
  }

  private static void git(Path dir, String... args) throws Exception {
    String[] cmd = new String[args.length + 1];
    cmd[0] = "git";
    System.arraycopy(args, 0, cmd, 1, args.length);
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start();
    assertEquals(0, p.waitFor());
  }

  private static double value(StoredRun run, String config, String metric) {
    return metric(run, config, metric).value();
  }

  private static StoredMetric metric(StoredRun run, String config, String metric) {
    return run.metrics().stream()
        .filter(m -> m.config().equals(config) && m.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError(config + "/" + metric + " not in " + run.metrics()));
  }
}
