package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * {@code --target container:IMAGE} and {@code jdbc:tc:} URLs: the same workload on postgres:15 and
 * postgres:17 side by side, with the data checked and the containers gone afterwards. Skipped where
 * no Docker engine answers; with one, the images come from the engine or its registry.
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerTargetsTest {
  private static final Pattern STARTED =
      Pattern.compile("started container (\\S+) \\(([0-9a-f]{12})\\)");

  @TempDir Path tmp;

  private static Cli run(Path json, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--duration",
                "2s",
                "--iterations",
                "2",
                "--warmup",
                "500ms",
                "--forks",
                "0",
                "--output",
                json.toString()));
    args.addAll(List.of(extra));
    return Cli.run(args.toArray(new String[0]));
  }

  @Test
  void tpcbOnPostgres15And17SideBySide() throws Exception {
    Path json = tmp.resolve("side.json");
    Cli r =
        run(
            json,
            "--target",
            "pg15=container:postgres:15",
            "--target",
            "pg17=container:postgres:17",
            "--server-setting",
            "shared_buffers=64MB",
            "--workload",
            "tpcb",
            "--clients",
            "4",
            "--check");
    assertEquals(0, r.exit, r.toString());
    JsonNode trials = new ObjectMapper().readTree(json.toFile()).get("trials");
    assertEquals(2, trials.size(), trials.toString());
    for (JsonNode t : trials) {
      String name = t.get("target").asText();
      int major = name.equals("pg15") ? 15 : 17;
      assertEquals(major, t.get("server").get("versionNum").asInt() / 10000, t.toString());
      assertEquals("container", t.get("targetKind").asText());
      assertEquals("postgres:" + major, t.get("provision").get("image").asText());
      // the setting asked for, and otherwise stock: not Testcontainers' fsync=off
      assertEquals("64MB", t.get("provision").get("serverSettings").get("shared_buffers").asText());
      assertEquals("64MB", t.get("server").get("settings").get("shared_buffers").asText());
      assertEquals("on", t.get("server").get("settings").get("fsync").asText());
      JsonNode m = t.get("measurement");
      assertTrue(m.get("totalOps").asLong() > 0, m.toString());
      assertEquals(0, m.get("totalFailedOps").asLong(), t.get("errors").toString());
      assertTrue(t.get("check").get("passed").asBoolean(), t.get("check").toString());
      // what each major lacks is one line and a null, and the run exits 0 all the same
      JsonNode db = m.get("serverSide").get("database");
      if (major >= 16) {
        assertTrue(db.get("io").isArray(), db.toString());
        assertTrue(db.get("ioWhy").isNull(), db.toString());
      } else {
        assertTrue(db.get("io").isNull(), db.toString());
        assertEquals("pg_stat_io is PostgreSQL 16's; this server is 15", db.get("ioWhy").asText());
      }
      // a stock image has no pg_stat_statements: no statements, no server time per op
      JsonNode side = m.get("serverSide");
      assertTrue(side.get("statements").isNull(), side.toString());
      assertTrue(
          side.get("statementsWhy").asText().startsWith("pg_stat_statements is not installed"),
          side.toString());
      assertTrue(m.get("perOp").get("serverMs").isNull(), m.get("perOp").toString());
    }
    assertGone(r.out, 2);
  }

  @Test
  void jdbcTcUrlIsOneContainerForTheRun() throws Exception {
    Path json = tmp.resolve("tc.json");
    Cli r = run(json, "--target", "jdbc:tc:postgresql:17:///shop", "--workload", "rr_write10");
    assertEquals(0, r.exit, r.toString());
    JsonNode t = new ObjectMapper().readTree(json.toFile()).get("trials").get(0);
    assertEquals(17, t.get("server").get("versionNum").asInt() / 10000);
    assertTrue(t.get("url").asText().endsWith("/shop"), t.get("url").asText());
    assertTrue(t.get("measurement").get("totalOps").asLong() > 0);
    assertGone(r.out, 1);
  }

  @Test
  void anImageThatIsNowhereIsOneLine() {
    Cli r =
        run(
            tmp.resolve("none.json"),
            "--target",
            "container:wg1bench/no-such-image:0",
            "--workload",
            "tpcb");
    assertEquals(1, r.exit, r.toString());
    assertTrue(
        r.err.contains("image wg1bench/no-such-image:0 is not in the engine and could not be"),
        r.err);
    assertFalse(r.err.contains("\tat "), r.err);
  }

  /** Every container the run reported starting no longer exists. */
  private static void assertGone(String out, int expected) {
    Matcher m = STARTED.matcher(out);
    int n = 0;
    while (m.find()) {
      n++;
      String id = m.group(2);
      boolean exists =
          DockerClientFactory.instance()
              .client()
              .listContainersCmd()
              .withShowAll(true)
              .exec()
              .stream()
              .anyMatch(c -> c.getId().startsWith(id));
      assertFalse(exists, "container " + id + " (" + m.group(1) + ") is still there");
    }
    assertEquals(expected, n, out);
  }
}
