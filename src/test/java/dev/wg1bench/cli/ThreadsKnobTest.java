package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.ThreadKind;
import dev.wg1bench.server.ExternalTarget;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * --threads: refused in one line on a runtime without virtual threads, swept and labelled like any
 * knob, and recorded with each trial as the kind the clients really ran on.
 */
class ThreadsKnobTest {
  @TempDir Path tmp;

  /** No server is reached: the target does not exist, and a run would exit 1 on it. */
  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void virtualIsRefusedInOneLineOnARuntimeWithoutVirtualThreads() {
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--threads",
            "virtual",
            "--target",
            "jdbc:postgresql://127.0.0.1:1/none?user=x",
            "--output",
            tmp.resolve("r.json").toString());
    assertEquals(2, r.exit, r.toString());
    String err = r.err.strip();
    assertEquals(1, err.lines().count(), r.toString());
    assertTrue(
        err.contains("--threads virtual needs a Java 21+ runtime, got Java " + Runtime.version()),
        r.toString());
    assertFalse(Files.exists(tmp.resolve("r.json")));
  }

  /** The shipped claim about virtual threads needs them: asked for by name, refused in one line. */
  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void adviseRefusesTheVirtualThreadsClaimOnARuntimeWithoutThem() {
    Cli r =
        Cli.run(
            "advise",
            "--only",
            "virtual-threads",
            "--target",
            "jdbc:postgresql://127.0.0.1:1/none?user=x");
    assertEquals(2, r.exit, r.toString());
    assertEquals(1, r.err.strip().lines().count(), r.toString());
    assertTrue(
        r.err.contains("--only virtual-threads: needs a Java 21+ runtime, got Java "),
        r.toString());
  }

  @Test
  void anUnknownKindIsAUsageError() {
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--threads",
            "green",
            "--target",
            "jdbc:postgresql://127.0.0.1:1/none?user=x");
    assertEquals(2, r.exit, r.toString());
    assertTrue(r.err.contains("'green' is not one of platform, virtual"), r.toString());
  }

  private static Matrix matrix(String... threads) {
    List<String> args = new ArrayList<>(List.of("--workload", "tpcb", "--forks", "0"));
    args.addAll(List.of(threads));
    var cl = Main.commandLine();
    cl.parseArgs(args.toArray(new String[0]));
    Main main = cl.getCommand();
    TargetSpec t = ExternalTarget.spec("t", "jdbc:postgresql://h/d", "u");
    return PlanFactory.build(main.run, List.of(t));
  }

  /** Unset means platform threads, and labels nothing: results of older runs read the same. */
  @Test
  void platformIsTheDefaultAndAnExplicitValueIsLabelled() {
    Matrix unset = matrix();
    assertEquals(1, unset.points().size());
    assertEquals(ThreadKind.PLATFORM, Knobs.threads(unset.points().get(0).plan()));
    assertNull(Knobs.THREADS.get(unset.points().get(0).plan()));
    assertTrue(Knobs.THREADS.labels(unset.points().get(0).plan()).isEmpty());
    Matrix given = matrix("--threads", "platform");
    assertEquals(
        java.util.Map.of("threads", "platform"),
        Knobs.THREADS.labels(given.points().get(0).plan()));
  }

  @Test
  @Tag("java21")
  @EnabledForJreRange(min = JRE.JAVA_21)
  void aSweepGivesOnePointPerKind() {
    Matrix m = matrix("--threads", "platform,virtual");
    assertEquals(2, m.points().size());
    assertEquals(ThreadKind.PLATFORM, Knobs.threads(m.points().get(0).plan()));
    assertEquals(ThreadKind.VIRTUAL, Knobs.threads(m.points().get(1).plan()));
  }

  /**
   * One in-process run sweeps both kinds (JMH fixes its executor once per JVM, wg1bench's own picks
   * the kind per trial); each trial records the kind its clients' threads really were, pins only
   * for virtual ones, and the CSV carries the knob's column.
   */
  @Test
  @Tag("java21")
  @EnabledForJreRange(min = JRE.JAVA_21)
  void eachTrialRecordsTheKindItsClientsRanOn() throws Exception {
    // the Java 21+ execution starts its own test server: nothing else made the tables there
    PgbenchData.reset();
    Path json = tmp.resolve("r.json");
    Path csv = tmp.resolve("r.csv");
    Cli r =
        Cli.run(
            "--target",
            TestServer.url(),
            "--forks",
            "0",
            "--workload",
            "select_only",
            "--clients",
            "3",
            "--threads",
            "platform,virtual",
            "--repeat",
            "1",
            // a number of ops, not a window a loaded machine could leave without one
            "-t",
            "50",
            "--output",
            json.toString(),
            "--csv",
            csv.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode trials = new ObjectMapper().readTree(json.toFile()).get("trials");
    assertEquals(2, trials.size(), r.toString());
    for (JsonNode t : trials) {
      String asked = t.get("point").get("threads").asText();
      JsonNode threads = t.get("client").get("threads");
      assertEquals(asked, threads.get("kind").asText(), r.toString());
      assertEquals(asked.equals("virtual"), threads.has("pinned"), threads.toString());
      assertTrue(t.get("measurement").get("ops").asLong() > 0, r.toString());
    }
    String header = Files.readAllLines(csv).get(0);
    assertTrue(List.of(header.split(",")).contains("threads"), header);
  }
}
