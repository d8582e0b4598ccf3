package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.history.gate.RegressionGate;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import dev.wg1bench.stats.EDivisive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history check}'s same-machine mode: a series the history leaves borderline is re-measured
 * in randomized blocks on a real server, and the blocks decide; a flagged regression the blocks
 * clear passes; the JSON says the same as the lines; the mode's options are checked in one line.
 */
class HistoryConfirmTest {
  @TempDir Path home;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  /**
   * select_only, and the same behind 5 ms of round-trip time: every op of the slow arm waits at
   * least 5 ms, where the fast one's takes a fraction of a millisecond. The slowness is waiting,
   * not work: it was sequential scans of 100,000 rows, and on two cores shared with a 200-client
   * trial one half-second trial of those completed no op (the blocks then, rightly, made the
   * verdict "broken"). A starved machine slows a wait for a timer far less than a scan.
   */
  static final String FAST = "--workload select_only --clients 1";

  static final String SLOW = FAST + " --rtt 5ms";

  /**
   * Shapes a short experiment: 6 blocks (three mirrored pairs) of half-second trials after half a
   * second's warmup, in this JVM (the gate's logic is under test here, not the fork: a forked
   * trial's JVM start cost 3 s of each 5). Half a second is plenty for the ratio (about 0.03, far
   * below the 0.5 asserted); the blocks are for the p value the gate asks (--p 0.001). With 4, a
   * soak with a busy loop on each core failed once in two: one block's baseline ran at a quarter of
   * the others' pace (1,039 ops against 4,271-5,193), and 4 log ratios of -3.5, -3.5, -3.2 and -1.9
   * give p 0.009 over 3 degrees of freedom, "inconclusive" at 0.001. Six such blocks with one
   * outlier give p below 0.0001.
   */
  static final String[] SHORT = {
    "--blocks", "6", "--duration", "500ms", "--warmup", "500ms", "--iterations", "1", "--forks", "0"
  };

  /** The ten runs before the latest: tps around 1000, a spread of about 1%. */
  static final double[] BEFORE = {1004, 991, 1012, 998, 1007, 989, 1003, 995, 1010, 996};

  /** Stores BEFORE then {@code latest} as the series cfg/tps; returns the history's location. */
  String history(double latest) throws Exception {
    try (HistoryStore h = HistoryStores.open("", home)) {
      for (int i = 0; i <= BEFORE.length; i++) {
        double v = i < BEFORE.length ? BEFORE[i] : latest;
        h.append(
            new StoredRun(
                null,
                Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i),
                "run",
                Map.of("commit", "c" + (i + 1)),
                List.of(new StoredMetric("cfg", "tps", true, v, Double.NaN, Double.NaN))));
      }
    }
    return "";
  }

  /** The gate's default settings, as the command builds them. */
  static ChangePointAnalysis.Settings defaults() {
    return new ChangePointAnalysis.Settings(new EDivisive.Settings(50, 0.001, 0, 1), false);
  }

  /** The highest latest tps that the gate calls borderline after BEFORE, found by stepping down. */
  static double borderlineLatest() {
    for (double v = 1000; v > 900; v -= 0.5) {
      List<dev.wg1bench.history.analysis.SeriesPoint> pts = new ArrayList<>();
      for (int i = 0; i <= BEFORE.length; i++) {
        pts.add(point(i, i < BEFORE.length ? BEFORE[i] : v));
      }
      RegressionGate.Judged j =
          RegressionGate.judge(new Series("cfg/tps", "tps", true, pts), defaults(), 1);
      if (j.borderline()) {
        return v;
      }
    }
    throw new AssertionError("no borderline value between 900 and 1000");
  }

  private static dev.wg1bench.history.analysis.SeriesPoint point(int i, double v) {
    return new dev.wg1bench.history.analysis.SeriesPoint(
        Instant.ofEpochSecond(i), "r" + i, "c" + i, v, Double.NaN, Double.NaN);
  }

  /** {@code history check} on history {@code h} with {@code options} and the short experiment. */
  static Cli confirmed(String h, String... options) {
    List<String> args = new ArrayList<>(List.of("history", "check", "--history", h));
    args.addAll(List.of(options));
    args.addAll(List.of(SHORT));
    return Cli.run(args.toArray(new String[0]));
  }

  @Test
  void aBorderlineSeriesIsRemeasuredAndTheBlocksConfirmARealRegression() throws Exception {
    double latest = borderlineLatest();
    String h = history(latest);
    Path out = home.resolve("confirm.json");

    Cli history = Cli.run("history", "check", "--history", h);
    assertEquals(0, history.exit, history.toString());
    assertTrue(history.out.startsWith("borderline cfg/tps: #10 run "), history.out);

    Cli c =
        confirmed(
            h,
            "--format",
            "json",
            "--confirm-baseline",
            FAST,
            "--confirm-candidate",
            SLOW,
            "--seed",
            "7",
            "-o",
            out.toString());
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    JsonNode gate = Json.MAPPER.readTree(c.out);
    assertEquals("regression", gate.get("outcome").asText());
    assertEquals(4, gate.get("exitCode").asInt());
    assertEquals(out.toString(), gate.get("confirmedOn").asText());
    JsonNode s = gate.get("series").get(0);
    assertEquals("cfg/tps", s.get("name").asText());
    assertEquals("pass", s.get("history").asText(), "the history alone did not flag it");
    assertTrue(s.get("borderline").asBoolean());
    assertEquals("regression", s.get("outcome").asText());
    JsonNode r = s.get("confirmation");
    assertEquals("CONFIRMED", r.get("decision").asText());
    assertEquals("confirms", r.get("result").get("verdict").asText());
    assertEquals(6, r.get("result").get("blocks").asInt());
    assertTrue(r.get("result").get("ratio").asDouble() < 0.5, r.toString());
    // the experiment's own result file holds both arms' trials, one of each per block
    JsonNode trials = Json.MAPPER.readTree(out.toFile()).get("trials");
    assertEquals(12, trials.size());
    long slow =
        java.util.stream.StreamSupport.stream(trials.spliterator(), false)
            .filter(t -> t.get("point").get("arm").asText().equals("treatment"))
            .count();
    assertEquals(6, slow);
    assertTrue(c.err.contains("randomized complete blocks"), "the experiment's lines: " + c.err);
  }

  @Test
  void aFlaggedRegressionTheBlocksShowToBeNoneIsClearedAndPasses() throws Exception {
    String h = history(800);
    Cli flagged = Cli.run("history", "check", "--history", h);
    assertEquals(HistoryCheckCommand.REGRESSION, flagged.exit, flagged.toString());

    Cli c =
        confirmed(
            h,
            "--confirm",
            "regressions",
            "--confirm-baseline",
            SLOW,
            "--confirm-candidate",
            FAST,
            "-o",
            home.resolve("cleared.json").toString());
    assertEquals(0, c.exit, c.toString());
    assertTrue(c.out.startsWith("cleared cfg/tps: #10 run "), c.out);
    assertTrue(c.out.contains("re-measured on this machine: candidate / baseline tps"), c.out);
    assertTrue(c.out.contains("no regression"), c.out);
    // a configuration the history cannot rebuild ("cfg", imported), the only one: the arms as given
    assertTrue(
        c.out.contains(
            "\n  configuration cfg: baseline '" + SLOW + "', candidate '" + FAST + "'\n"),
        c.out);
    assertTrue(c.out.contains("0 regressed, 0 improved, 0 borderline, 1 re-measured"), c.out);
    assertTrue(Files.exists(home.resolve("cleared.json")));
  }

  @Test
  void aRemeasurementThatCannotRunExits1AfterTheGatesLines() throws Exception {
    String h = history(800);
    // nothing listens there: the blocks fail on connecting, as an unreachable server does
    Cli c =
        confirmed(
            h,
            "--confirm",
            "regressions",
            "--target",
            "jdbc:postgresql://127.0.0.1:1/nowhere",
            "--confirm-baseline",
            FAST,
            "--confirm-candidate",
            SLOW,
            "-o",
            home.resolve("failed.json").toString());
    assertEquals(1, c.exit, c.toString());
    assertTrue(c.out.startsWith("REGRESSION cfg/tps: "), c.out);
    assertTrue(c.out.contains("no complete block: could not run ("), c.out);
    String last = c.err.strip().lines().reduce((a, b) -> b).orElse("");
    assertTrue(
        last.startsWith("wg1bench: history check: the re-measurement of cfg/tps failed: "), c.err);
    assertFalse(c.err.contains("Exception"), c.err);
  }

  @Test
  void jsonWithoutRemeasurementHoldsEverySeriesAndTheExitCode() throws Exception {
    String h = history(800);
    Cli c = Cli.run("history", "check", "--history", h, "--format", "json");
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    JsonNode gate = Json.MAPPER.readTree(c.out);
    assertEquals("regression", gate.get("outcome").asText());
    assertTrue(gate.get("confirmedOn").isNull());
    JsonNode s = gate.get("series").get(0);
    assertEquals("regression", s.get("history").asText());
    assertEquals("regression", s.get("outcome").asText());
    assertFalse(s.get("borderline").asBoolean());
    assertTrue(s.get("confirmation").isNull());
    assertEquals(10, s.get("comparison").get("index").asInt());
    assertEquals("c11", s.get("comparison").get("commit").asText());
    assertTrue(s.get("comparison").get("change").get("relative").asDouble() < -0.15);
    assertNotNull(s.get("comparison").get("p"));
  }

  @Test
  void theModesOptionsAreCheckedInOneLine() throws Exception {
    String h = history(800);
    String[][] cases = {
      {"--confirm-baseline", FAST},
      {"--confirm-candidate", FAST},
      {"--blocks", "4"},
      {"--target", "embedded"},
      {"--margin", "2%"},
      {"--warmup", "1s"},
      {"--force"},
      {"--confirm", "all"},
      {"--confirm", "sometimes"},
      {"--borderline-p", "0.0001", "--confirm-baseline", FAST, "--confirm-candidate", SLOW},
      {"--blocks", "1", "--confirm-baseline", FAST, "--confirm-candidate", SLOW},
      {
        "--confirm-baseline", FAST + " --clients 0", "--confirm-candidate", FAST, "--confirm", "all"
      },
    };
    String[] names = {
      "--confirm-baseline",
      "--confirm-candidate",
      "--blocks",
      "--target",
      "--margin",
      "--warmup",
      "--force",
      "--confirm",
      "--confirm",
      "--borderline-p",
      "--blocks",
      "--confirm-baseline: --clients"
    };
    for (int i = 0; i < cases.length; i++) {
      List<String> args = new ArrayList<>(List.of("history", "check", "--history", h));
      args.addAll(List.of(cases[i]));
      Cli c = Cli.run(args.toArray(new String[0]));
      assertEquals(2, c.exit, String.join(" ", cases[i]) + ": " + c);
      assertEquals(1, c.err.strip().lines().count(), c.err);
      assertTrue(c.err.contains(names[i]), names[i] + " named in: " + c.err);
      assertFalse(c.err.contains("Exception"), c.err);
    }
  }

  /**
   * Arms with --check print each trial's lines ("result written to ..."): with --format json they
   * go to stderr, and stdout is the gate's JSON alone.
   */
  @Test
  void withJsonStdoutIsTheGatesAloneWhateverTheArmsPrint() throws Exception {
    String h = history(borderlineLatest());
    Cli c =
        confirmed(
            h,
            "--format",
            "json",
            "--confirm-baseline",
            FAST + " --check",
            "--confirm-candidate",
            FAST + " --check --set application_name=candidate",
            "-o",
            home.resolve("checked.json").toString());
    JsonNode gate = Json.MAPPER.readTree(c.out);
    assertEquals(c.exit, gate.get("exitCode").asInt(), c.toString());
    String out = c.out.strip();
    assertTrue(out.startsWith("{") && out.endsWith("}"), "one JSON document: " + c.out);
    assertFalse(c.out.contains("result written to"), c.out);
    assertTrue(c.err.contains("result written to"), "the arms' own lines, on stderr: " + c.err);
  }
}
