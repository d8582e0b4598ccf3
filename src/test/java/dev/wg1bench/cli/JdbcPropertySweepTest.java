package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jdbc-property NAME=V1,V2} sweeps as any knob: a point per value, each point's
 * connections carry its value (the server records what each connection was given), the point's
 * label names it, and {@code \,} passes a literal comma.
 */
class JdbcPropertySweepTest {
  private static final String TABLE = "hopts_jdbc_property_seen";

  @TempDir Path tmp;

  @BeforeEach
  void table() throws Exception {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + TABLE);
      s.execute("CREATE TABLE " + TABLE + " (app text, search_path text)");
    }
  }

  @AfterEach
  void drop() throws Exception {
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + TABLE);
    }
  }

  @Test
  void eachValueIsAPointAndReachesItsConnections() throws Exception {
    Path script = tmp.resolve("seen.sql");
    Files.writeString(
        script,
        "INSERT INTO "
            + TABLE
            + " VALUES (current_setting('application_name'), current_setting('search_path'));\n");
    Path json = tmp.resolve("r.json");
    Cli r =
        Cli.run(
            "-f",
            script.toString(),
            "--target",
            TestServer.url(),
            "--clients",
            "1",
            "--forks",
            "0",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--duration",
            "300ms",
            "--repeat",
            "1",
            "--order",
            "sequential",
            "--jdbc-property",
            "ApplicationName=hopts_a,hopts_b",
            "--jdbc-property",
            "options=-c search_path=hopts_x\\,public",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());

    // what the server saw: one application name per point, the escaped comma kept in one value
    Map<String, String> seen = new TreeMap<>();
    try (Connection c = TestServer.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DISTINCT app, search_path FROM " + TABLE)) {
      while (rs.next()) {
        seen.put(rs.getString(1), rs.getString(2));
      }
    }
    assertEquals(2, seen.size(), seen.toString());
    assertTrue(seen.containsKey("hopts_a") && seen.containsKey("hopts_b"), seen.toString());
    seen.values()
        .forEach(p -> assertTrue(p.replace(" ", "").equals("hopts_x,public"), seen.toString()));

    // and what the result says: two points labelled by the property, with the rows they wrote
    JsonNode run = Json.MAPPER.readTree(json.toFile());
    assertEquals(2, run.get("summary").size(), run.get("summary").toString());
    Map<String, Long> opsByApp = new TreeMap<>();
    for (JsonNode t : run.get("trials")) {
      assertEquals(
          "-c search_path=hopts_x,public",
          t.get("point").get("jdbc.options").asText(),
          t.toString());
      opsByApp.merge(
          t.get("point").get("jdbc.ApplicationName").asText(),
          t.get("measurement").get("ops").asLong(),
          Long::sum);
    }
    assertEquals(java.util.Set.of("hopts_a", "hopts_b"), opsByApp.keySet());
    assertTrue(r.out.contains("jdbc.ApplicationName=hopts_a"), r.out);
  }
}
