package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.support.Await;
import dev.wg1bench.support.MainOut;
import dev.wg1bench.support.OwnServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark clients over TLS. Their sockets are a channel's (server/BlockingSocketFactory), which
 * pgjdbc wraps in the JDK's TLS socket after the server accepts its SSL request: the clients must
 * run encrypted, say so, and every op they count must be one the server did, on platform and on
 * virtual threads.
 */
class TlsClientsTest {
  private static OwnServer server;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = OwnServer.start(20);
    Path data = server.data();
    // a self-signed certificate in the data directory, where ssl_cert_file and ssl_key_file point
    // by default; ssl can be turned on with a reload
    Process p =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-keyout",
                data.resolve("server.key").toString(),
                "-out",
                data.resolve("server.crt").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assumeTrue(
        p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0,
        "openssl could not make a certificate: no TLS server to test against");
    Files.setPosixFilePermissions(
        data.resolve("server.key"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    server.execute("ALTER SYSTEM SET ssl = on");
    server.execute("SELECT pg_reload_conf()");
    Await.until(
        java.time.Duration.ofSeconds(30),
        "the server to accept TLS",
        () -> {
          try (Connection c = server.connect();
              Statement st = c.createStatement();
              ResultSet rs = st.executeQuery("SHOW ssl")) {
            rs.next();
            return rs.getString(1).equals("on");
          } catch (java.sql.SQLException e) {
            return false;
          }
        });
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private long historyRows() throws Exception {
    try (Connection c = server.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM pgbench_history")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * tpcb over sslmode=require: each op inserts one pgbench_history row, so the rows the server
   * holds after the trial are exactly the ops the tool counted over it.
   */
  private JsonNode runOverTls(String... extra) throws Exception {
    long before = historyRows();
    Path json = tmp.resolve("tls" + System.nanoTime() + ".json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--target",
                server.url() + "&sslmode=require",
                "--forks",
                "0",
                "--workload",
                "tpcb",
                "--clients",
                "4",
                "--warmup",
                "0",
                "--duration",
                "2s",
                "--iterations",
                "1",
                "--output",
                json.toString()));
    args.addAll(List.of(extra));
    MainOut.Trial ran = MainOut.trial(args, json);
    String out = ran.out();
    JsonNode trial = ran.trial();
    JsonNode client = trial.get("client");
    assertEquals("require (in the URL)", client.get("sslmode").asText(), out);
    assertTrue(client.get("ssl").asText().startsWith("TLSv1."), client.toString());
    assertTrue(out.contains("connection: ssl TLSv1."), out);
    JsonNode m = trial.get("measurement");
    assertEquals(0, m.get("totalFailedOps").asLong(), out);
    assertTrue(m.get("totalOps").asLong() > 0, out);
    assertEquals(
        m.get("totalOps").asLong(),
        historyRows() - before,
        "every op the clients counted over TLS is a row the server inserted");
    return trial;
  }

  @Test
  void platformClientsRunEncryptedAndCountWhatTheServerDid() throws Exception {
    JsonNode trial = runOverTls();
    assertEquals("platform", trial.get("client").get("threads").get("kind").asText());
  }

  @Test
  @Tag("java21")
  @EnabledForJreRange(min = JRE.JAVA_21)
  void virtualClientsRunEncryptedAndCountWhatTheServerDid() throws Exception {
    JsonNode trial = runOverTls("--threads", "virtual");
    assertEquals("virtual", trial.get("client").get("threads").get("kind").asText());
  }
}
