package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.support.LimitedRole;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pooled clients' TLS is read on a session of its own, opened after the pool filled: a role whose
 * connection limit the pool takes whole (2 connections for 3 clients) has that session refused. The
 * run still measures (its pool is full), and the console and the JSON say the TLS is unknown and
 * why, never "ssl null".
 */
class TlsProbeRefusedTest {
  @TempDir Path tmp;

  @Test
  void aRefusedProbeSaysTheTlsIsUnknownAndWhy() throws Exception {
    try (LimitedRole role = new LimitedRole("wg1_probe_limited", 2)) {
      Path script = tmp.resolve("one.sql");
      Files.writeString(script, "SELECT 1;\n");
      Path out = tmp.resolve("r.json");
      Cli r =
          Cli.run(
              "--script",
              script.toString(),
              "--target",
              role.url(),
              "--clients",
              "3",
              "--pool-size",
              "2",
              "--duration",
              "1s",
              "--warmup",
              "0",
              "--iterations",
              "1",
              "--forks",
              "0",
              "--output",
              out.toString());
      assertEquals(0, r.exit, r.toString());
      String why =
          "unknown (the probe was refused: 53300: FATAL: too many connections for role \""
              + role.name()
              + "\")";
      assertTrue(r.out.contains("connection: ssl " + why + " (sslmode "), r.out);
      assertFalse(r.out.contains("ssl null"), r.out);
      String json =
          new ObjectMapper()
              .readTree(out.toFile())
              .get("trials")
              .get(0)
              .get("client")
              .get("ssl")
              .asText();
      assertEquals(why, json);
    }
  }
}
