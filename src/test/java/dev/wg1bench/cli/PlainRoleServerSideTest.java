package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.LimitedRole;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run as a plain login role (not a superuser, not a member of pg_read_all_stats, not the
 * owner of pg_stat_statements): its clients and its server window are that one role, which reads
 * its own sessions and statements, so the run's server side is as a superuser's would be: the wait
 * profile, the statements and the server time per op, and exit 0.
 */
class PlainRoleServerSideTest {
  @TempDir Path tmp;

  @Test
  void aPlainRolesRunHasItsWaitsStatementsAndServerTime() throws Exception {
    try (LimitedRole role = new LimitedRole("wg1_plain_window", 10)) {
      Path script = tmp.resolve("plain.sql");
      Files.writeString(script, "SELECT pg_sleep(0.002) AS plain_role_run;\n");
      Path json = tmp.resolve("r.json");
      Cli r =
          Cli.run(
              "--script",
              script.toString(),
              "--target",
              role.url(),
              "--clients",
              "2",
              "--warmup",
              "0",
              "--duration",
              "2s",
              "--iterations",
              "1",
              "--forks",
              "0",
              "--output",
              json.toString());
      assertEquals(0, r.exit, r.toString());
      JsonNode m =
          new ObjectMapper().readTree(json.toFile()).get("trials").get(0).get("measurement");
      JsonNode side = m.get("serverSide");
      assertTrue(side.get("waits").isArray(), side.get("waitsWhy").toString());
      boolean sleeping = false;
      for (JsonNode w : side.get("waits")) {
        assertTrue(!w.get("name").asText().equals("unknown"), side.get("waits").toString());
        sleeping |= w.get("name").asText().equals("Timeout:PgSleep");
      }
      assertTrue(sleeping, side.get("waits").toString());
      boolean ours = false;
      for (JsonNode s : side.get("statements")) {
        ours |= s.get("query").asText().contains("plain_role_run");
      }
      assertTrue(ours, side.get("statements").toString());
      assertTrue(m.get("perOp").get("serverMs").asDouble() >= 2.0, m.get("perOp").toString());
    }
  }
}
