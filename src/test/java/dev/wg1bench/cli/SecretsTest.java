package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A password given in the URL appears in no output: console, errors or the JSON result. */
class SecretsTest {
  static final String PLANTED = "Planted-Secret-4711";

  @TempDir Path tmp;

  @Test
  void passwordInUrlIsNeverPrinted() throws Exception {
    PgbenchData.reset();
    String url = TestServer.url("password=" + PLANTED);
    Path json = tmp.resolve("r.json");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            "secret=" + url,
            "--forks",
            "0",
            "--duration",
            "600ms",
            "--iterations",
            "3",
            "--warmup",
            "0",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    assertFalse(r.out.contains(PLANTED), "stdout");
    assertFalse(r.err.contains(PLANTED), "stderr");
    assertFalse(Files.readString(json).contains(PLANTED), "JSON result");
  }

  @Test
  void passwordInBadTargetIsRedacted() {
    Cli r =
        Cli.run(
            "--workload", "tpcb", "--target", "ftp://u:" + PLANTED + "@h/db?password=" + PLANTED);
    assertEquals(2, r.exit);
    assertFalse(r.err.contains(PLANTED), r.err);
  }

  @Test
  void passwordOfUnreachableServerIsNotEchoed() {
    Cli r =
        Cli.run(
            "--workload", "tpcb", "--target", "postgresql://bob:" + PLANTED + "@127.0.0.1:1/db");
    assertEquals(1, r.exit);
    assertFalse(r.err.contains(PLANTED), r.err);
    assertFalse(r.out.contains(PLANTED), r.out);
  }
}
