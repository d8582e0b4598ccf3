package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded servers' initdb template (EmbeddedTemplate), kept here in a directory of the test's
 * own: made by the first start and copied for the next, a server started from a copy is a cluster
 * of its own with nothing of the template's run in its statistics, and a template that is damaged
 * or not the user's own never stops a server from starting.
 */
class EmbeddedTemplateTest {
  @TempDir Path tmp;

  @Test
  void theFirstStartMakesTheTemplateTheNextOnesCopyItAndADamagedOneIsMadeAnew() throws Exception {
    Path root = tmp.resolve("templates");
    Path template;
    try (EmbeddedServer first = EmbeddedServer.start(EmbeddedTarget.spec(null), 1, root)) {
      template = onlyTemplate(root);
      assertTrue(
          Files.isRegularFile(template.resolve(EmbeddedTemplate.MARKER)), template.toString());
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
      // a server's own writes stay in its copy
      try (Connection c = connect(first);
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE only_in_first (i int)");
      }
      try (EmbeddedServer second = EmbeddedServer.start(EmbeddedTarget.spec(null), 1, root)) {
        assertNotEquals(first.dataDirectory(), second.dataDirectory());
        assertEquals(second.dataDirectory().toRealPath().toString(), dataDirectory(second));
        // the copy is not the template's own files, and holds no marker of its
        assertFalse(Files.exists(second.dataDirectory().resolve(EmbeddedTemplate.MARKER)));
        assertEquals(template, onlyTemplate(root));
        // the template's one start left no statistics: the copy's counters are its own
        assertEquals(0, count(second, "SELECT count(*) FROM pg_stat_user_tables"));
        assertEquals(3, count(second, "SELECT count(*) FROM pg_database"));
        assertEquals(
            0, count(second, "SELECT count(*) FROM pg_class WHERE relname = 'only_in_first'"));
      }
      assertEquals(
          1, count(first, "SELECT count(*) FROM pg_class WHERE relname = 'only_in_first'"));
    }
    assertTrue(Files.isDirectory(template), "the template stays when its servers are gone");
    // damaged since (a temporary-file cleaner, say): made anew, and the server starts
    Files.delete(template.resolve("global/pg_control"));
    try (EmbeddedServer s = EmbeddedServer.start(EmbeddedTarget.spec(null), 1, root)) {
      assertEquals(s.dataDirectory().toRealPath().toString(), dataDirectory(s));
    }
    assertEquals(template, onlyTemplate(root));
    assertTrue(Files.isRegularFile(template.resolve("global/pg_control")));
  }

  /** No server needed: a directory others can write is refused before any template is made. */
  @Test
  void aTemplatesDirectoryOthersCanWriteIsNotUsed() throws Exception {
    Path root = tmp.resolve("templates");
    Files.createDirectory(
        root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
    EmbeddedTemplate t =
        new EmbeddedTemplate(
            root,
            "17.0.0",
            () -> {
              throw new AssertionError("no server is started for a template here");
            });
    EmbeddedTemplate.DataDirectory d = t.newDataDirectory();
    try {
      assertFalse(d.initialised(), "left empty for zonky's own initdb");
      try (Stream<Path> in = Files.list(d.path())) {
        assertEquals(0, in.count());
      }
      try (Stream<Path> in = Files.list(root)) {
        assertEquals(0, in.count(), "nothing made in a directory others can write");
      }
    } finally {
      EmbeddedServer.deleteTree(d.path());
    }
  }

  private static Path onlyTemplate(Path root) throws Exception {
    try (Stream<Path> in = Files.list(root)) {
      var all = in.toList();
      assertEquals(1, all.size(), all.toString());
      return all.get(0);
    }
  }

  private static Connection connect(EmbeddedServer s) throws SQLException {
    return new ConnectionFactory(s.target(), ClientSettings.defaults()).openPlain();
  }

  private static int count(EmbeddedServer s, String sql) throws SQLException {
    try (Connection c = connect(s);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String dataDirectory(EmbeddedServer s) throws SQLException {
    try (Connection c = connect(s);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW data_directory")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
