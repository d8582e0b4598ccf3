package dev.wg1bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * The tool's own connections in a measured JVM run on a copy of pgjdbc of their own: other classes
 * (so other profiles and compiled code) than the clients' driver, the same server and settings, and
 * no second driver in {@link DriverManager}.
 */
class OwnDriverTest {
  private static ConnectionFactory factory() {
    return new ConnectionFactory(TestServer.target(), ClientSettings.defaults());
  }

  @Test
  void theToolsOwnConnectionRunsOnAnotherCopyOfTheDriver() throws Exception {
    try (Connection own = factory().openOwn();
        Connection plain = factory().openPlain()) {
      Class<?> ownClass = own.getClass();
      Class<?> plainClass = plain.getClass();
      assertEquals(plainClass.getName(), ownClass.getName(), "pgjdbc's connection, both");
      assertNotSame(plainClass, ownClass, "a class of its own");
      assertNotSame(plainClass.getClassLoader(), ownClass.getClassLoader());
      assertSame(
          org.postgresql.Driver.class.getClassLoader(),
          plainClass.getClassLoader(),
          "the clients' connections keep the application's driver");
      // what the window reads through it: the same server, the tool's own settings
      try (Statement st = own.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT current_setting('statement_timeout'), current_setting('application_name')")) {
        assertTrue(rs.next());
        assertEquals("0", rs.getString(1), "the tool's own connections have no statement timeout");
        assertEquals("wg1bench", rs.getString(2));
      }
    }
  }

  @Test
  void theCopyIsNotADriverOfDriverManager() throws Exception {
    try (Connection own = factory().openOwn()) {
      ClassLoader copy = own.getClass().getClassLoader();
      for (Driver d : Collections.list(DriverManager.getDrivers())) {
        assertFalse(d.getClass().getClassLoader() == copy, "registered: " + d);
      }
    }
  }
}
