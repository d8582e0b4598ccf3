package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.Await;
import dev.wg1bench.support.OwnServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a server that really checks passwords (scram-sha-256 for one role): a wrong password
 * fails with exit 1 and its exception message never holds it; a right one runs pooled and forked
 * without the password reaching the console, the library logs on stderr or the JSON.
 */
class AuthSecretsTest {
  static final String RIGHT = "Right-Secret-9931";
  static final String WRONG = "Wrong-Secret-5417";

  static OwnServer server;

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = OwnServer.start(20);
    server.execute("SET password_encryption = 'scram-sha-256'");
    server.execute("CREATE ROLE carol LOGIN SUPERUSER PASSWORD '" + RIGHT + "'");
    Path hba = server.data().resolve("pg_hba.conf");
    // first matching line wins: carol needs her password over TCP, everyone else is trusted
    Files.writeString(
        hba,
        "host all carol 0.0.0.0/0 scram-sha-256\nhost all carol ::/0 scram-sha-256\n"
            + Files.readString(hba));
    String loaded = confLoadTime();
    server.execute("SELECT pg_reload_conf()");
    // the postmaster rereads pg_hba.conf when it gets the signal; new backends show the new time
    Await.until(
        java.time.Duration.ofMinutes(1),
        "the server to reload pg_hba.conf",
        () -> !confLoadTime().equals(loaded));
  }

  private static String confLoadTime() {
    try (java.sql.Connection c = server.connect();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT pg_conf_load_time()::text")) {
      rs.next();
      return rs.getString(1);
    } catch (java.sql.SQLException e) {
      return "";
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private String url(String password) {
    return server.url().replace("?user=postgres", "?user=carol&password=" + password);
  }

  private static void assertNoSecret(String what, String text) {
    assertFalse(text.contains(RIGHT) || text.contains(WRONG), what + " holds a password:\n" + text);
  }

  @Test
  void wrongPasswordFailsWithoutEchoingIt() {
    Cli r = Cli.run("--workload", "select_only", "--target", url(WRONG), "--forks", "0");
    CliErrorsTest.assertOneLine(r, 1, "password authentication failed for user \"carol\"");
    assertNoSecret("stdout", r.out);
    assertNoSecret("stderr", r.err);
    // the postgresql:// form goes the same way
    r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            server
                .url()
                .replace("?user=postgres", "")
                .replace("jdbc:postgresql://", "postgresql://carol:" + WRONG + "@"),
            "--forks",
            "0");
    CliErrorsTest.assertOneLine(r, 1, "password authentication failed");
    assertNoSecret("stderr", r.err);
  }

  @Test
  void rightPasswordPooledAndForkedLeavesNoTrace() throws Exception {
    Path json = tmp.resolve("r.json");
    Path pw = tmp.resolve("pw");
    Files.writeString(pw, RIGHT + "\n");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            server.url().replace("?user=postgres", "?user=carol"),
            "--password-file",
            pw.toString(),
            "--clients",
            "4",
            "--pool-size",
            "2",
            "--duration",
            "1s",
            "--iterations",
            "1",
            "--warmup",
            "0",
            "--forks",
            "1",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    assertNoSecret("stdout", r.out);
    assertNoSecret("stderr (library logs included)", r.err);
    assertNoSecret("JSON", Files.readString(json));
    assertTrue(
        Files.readString(json).contains("\"user\""), "the user is recorded, not the password");
  }
}
