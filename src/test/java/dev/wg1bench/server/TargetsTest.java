package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.plan.Provision;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.support.Plans;
import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/** The target kinds' parse rules and the objects they become, against a real server. */
class TargetsTest {
  @TempDir Path tmp;

  @Test
  void jdbcUrlKeepsNoPasswordAndTakesCredentialsInOrder() {
    TargetSpec t =
        Targets.parse(
            "jdbc:postgresql://db:5433/bench?user=u&password=secret&ssl=false",
            Map.of("PGPASSWORD", "env"),
            null);
    assertEquals(ExternalTarget.EXTERNAL, t.kind());
    assertEquals("db:5433/bench", t.name());
    assertEquals("jdbc:postgresql://db:5433/bench?ssl=false", t.jdbcUrl());
    assertEquals("u", t.user());
    assertEquals("secret", t.password().reveal());
    TargetSpec e = Targets.parse("jdbc:postgresql://db/bench", Map.of("PGPASSWORD", "env"), null);
    assertEquals("env", e.password().reveal());
  }

  /**
   * A pgjdbc property in the URL is checked as --jdbc-property checks it, before anything starts
   * (issue 56: sslmode=bogus was exit 1 after connecting), in pgjdbc's case rules for sslmode.
   */
  @Test
  void urlPropertiesPgjdbcWouldRefuseAreUsageErrors() {
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> Targets.parse("jdbc:postgresql://h/x?sslmode=bogus", Map.of(), null));
    assertEquals(
        "--target 'jdbc:postgresql://h/x?sslmode=bogus': sslmode='bogus' is not valid; expected"
            + " one of disable, allow, prefer, require, verify-ca, verify-full",
        e.getMessage());
    assertThrows(
        UsageException.class,
        () -> Targets.parse("postgresql://h/x?tcpKeepAlive=yes", Map.of(), null));
    // what pgjdbc takes stays: a case it ignores, a property it does not know
    assertEquals(
        "jdbc:postgresql://h/x?sslmode=DISABLE&acme=1",
        Targets.parse("jdbc:postgresql://h/x?sslmode=DISABLE&acme=1", Map.of(), null).jdbcUrl());
  }

  @Test
  void libpqUrlWithNameAndPasswordFile() throws Exception {
    Path pw = tmp.resolve("pgpass");
    Files.writeString(pw, "other:5432:*:*:no\nh:5432:bench:alice:fromfile\n");
    TargetSpec t = Targets.parse("prod=postgresql://alice@h/bench", Map.of(), pw);
    assertEquals("prod", t.name());
    assertEquals("jdbc:postgresql://h/bench", t.jdbcUrl());
    assertEquals("fromfile", t.password().reveal());
  }

  @Test
  void embeddedWithMajorAndName() {
    TargetSpec t = Targets.parse("old=embedded:16", Map.of(), null);
    assertEquals("old", t.name());
    assertEquals(EmbeddedTarget.EMBEDDED, t.kind());
    assertEquals("16", t.embeddedVersion());
    assertNull(t.jdbcUrl());
    assertTrue(Targets.of(t).fresh());
    assertEquals("embedded", Targets.defaultTarget().name());
  }

  @Test
  void containerAndJdbcTcTargetsNameTheirImage() {
    TargetSpec c = Targets.parse("pg15=container:postgres:15", Map.of(), null);
    assertEquals(ContainerTarget.CONTAINER, c.kind());
    assertEquals("pg15", c.name());
    assertEquals("postgres:15", c.provision().image());
    assertTrue(Targets.of(c).fresh());
    TargetSpec tc = Targets.parse("jdbc:tc:postgresql:17:///shop", Map.of(), null);
    assertEquals(ContainerTarget.CONTAINER, tc.kind());
    assertEquals("postgres:17", tc.provision().image());
    assertEquals("jdbc:postgresql:///shop", tc.jdbcUrl());
    UsageException noTag =
        assertThrows(
            UsageException.class,
            () -> Targets.parse("jdbc:tc:postgresql:///shop", Map.of(), null));
    assertTrue(noTag.getMessage().contains("names no PostgreSQL version"), noTag.getMessage());
    UsageException params =
        assertThrows(
            UsageException.class,
            () -> Targets.parse("jdbc:tc:postgresql:17:///shop?TC_TMPFS=/x", Map.of(), null));
    assertTrue(params.getMessage().contains("--server-setting"), params.getMessage());
  }

  @Test
  void viaNamesAPoolModeAndLeavesWgSettingsAlone() {
    assertEquals(
        "pgbouncer:transaction,max_prepared_statements=0",
        PgBouncerTarget.checkVia("pgbouncer:transaction,max_prepared_statements=0"));
    UsageException mode =
        assertThrows(UsageException.class, () -> PgBouncerTarget.checkVia("pgbouncer:txn"));
    assertTrue(
        mode.getMessage().startsWith("--via 'pgbouncer:txn' is not a pooler"), mode.getMessage());
    UsageException ours =
        assertThrows(
            UsageException.class,
            () -> PgBouncerTarget.checkVia("pgbouncer:session,listen_port=1"));
    assertTrue(ours.getMessage().contains("listen_port is set by wg1bench"), ours.getMessage());
    TargetSpec wrapped =
        Targets.parse("container:postgres:17", Map.of(), null)
            .withProvision(Provision.image("postgres:17").withVia("pgbouncer:session"));
    assertInstanceOf(PgBouncerTarget.class, Targets.of(wrapped));
  }

  @Test
  void provisionSurvivesThePlanFile() throws Exception {
    ObjectMapper json = new ObjectMapper();
    TargetSpec t =
        Targets.parse("pg=container:postgres:15", Map.of(), null)
            .withProvision(
                Provision.image("postgres:15")
                    .withServerSettings(Map.of("shared_buffers", "256MB"))
                    .withVia("pgbouncer:transaction"));
    TargetSpec back = json.readValue(json.writeValueAsString(t), TargetSpec.class);
    assertEquals(t.provision(), back.provision());
    assertEquals(ContainerTarget.CONTAINER, back.kind());
    // a target without one writes no provision at all
    assertFalse(
        json.writeValueAsString(ExternalTarget.spec("x", "jdbc:postgresql://h/db", "u"))
            .contains("provision"));
  }

  @Test
  void badTextIsOneLineWithoutThePassword() {
    UsageException e =
        assertThrows(
            UsageException.class, () -> Targets.parse("mysql://u:hunter2@h/db", Map.of(), null));
    assertEquals(
        "--target 'mysql://u:****@h/db' is not a PostgreSQL URL; expected"
            + " [NAME=]jdbc:postgresql://HOST[:PORT]/DB, [NAME=]postgresql://USER@HOST[:PORT]/DB,"
            + " embedded or container:IMAGE",
        e.getMessage());
    UsageException p =
        assertThrows(
            UsageException.class,
            () -> Targets.parse("jdbc:postgresql://h:99999/db", Map.of(), null));
    assertTrue(p.getMessage().contains("port '99999' is not valid"), p.getMessage());
  }

  @Test
  void kindSerializesAsItsNameAndReadsBack() throws Exception {
    ObjectMapper json = new ObjectMapper();
    TargetSpec t = ExternalTarget.spec("x", "jdbc:postgresql://h/db", "u");
    String text = json.writeValueAsString(t);
    assertTrue(text.contains("\"kind\":\"EXTERNAL\""), text);
    assertEquals(t, json.readValue(text, TargetSpec.class));
    assertInstanceOf(ExternalTarget.class, Targets.of(json.readValue(text, TargetSpec.class)));
  }

  @Test
  void externalTargetSeparatesAdminAndClientConnections() throws SQLException {
    Target t = Targets.of(TestServer.target());
    assertFalse(t.fresh());
    ClientSettings s =
        new ClientSettings(
            QueryMode.SIMPLE,
            null,
            Map.of("application_name", "wg1client"),
            t.admin().settings().driver());
    try (Connection admin = t.openAdmin();
        Connection client = t.clients(s).openClient()) {
      assertEquals("wg1bench", setting(admin, "application_name"));
      assertEquals("wg1client", setting(client, "application_name"));
    }
  }

  @Test
  void dataSourceTargetUsesTheApplicationsPoolAndStaysInProcess() throws Exception {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(TestServer.url());
    ds.setApplicationName("the-app");
    String id = DataSources.register(ds);
    try {
      Target t = Targets.of(DataSourceTarget.spec("app", id));
      try (Connection c = t.openAdmin()) {
        assertEquals("the-app", setting(c, "application_name"));
      }
      var plan = Plans.builtin("select_only", 1, QueryMode.SIMPLE, tmp.resolve("r.json"));
      t.validate(plan); // forks 0: fine
      var forked =
          new dev.wg1bench.plan.RunPlan(
              plan.workload(),
              plan.scripts(),
              plan.targets(),
              1,
              null,
              dev.wg1bench.support.Plans.timing(
                  plan.timing().warmup(), plan.timing().duration(), 1, 1),
              plan.session(),
              plan.driver(),
              plan.params(),
              plan.output());
      UsageException e = assertThrows(UsageException.class, () -> t.validate(forked));
      assertEquals(
          "a DataSource target needs --forks 0 (it exists only in this JVM)", e.getMessage());
    } finally {
      DataSources.unregister(id);
    }
  }

  @Test
  void embeddedTargetStartsOnceAndStopsOnClose() throws Exception {
    Target t = Targets.of(EmbeddedTarget.spec(null));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    t.start(1, new PrintStream(out, true, StandardCharsets.UTF_8));
    String url = t.spec().jdbcUrl();
    try (Connection c = t.openAdmin()) {
      assertTrue(c.isValid(5));
    }
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("started an embedded PostgreSQL"));
    t.close();
    assertThrows(
        SQLException.class,
        () ->
            new ConnectionFactory(
                    ExternalTarget.spec("gone", url, "postgres"), ClientSettings.defaults())
                .openPlain()
                .close());
  }

  private static String setting(Connection c, String name) throws SQLException {
    try (var ps = c.prepareStatement("SELECT current_setting(?)")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
