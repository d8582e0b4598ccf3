package dev.wg1bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * Behind a session-mode pooler (here stood in for by the test server itself: what matters is the
 * target's provision): a client's server session is read once on its connection and kept with its
 * socket's counts; a window with no session read keeps the mode's old line; a read that fails fails
 * nothing.
 */
class ForkServerSideTest {
  private static ConnectionFactory behind(String via) {
    TargetSpec t = TestServer.target();
    TargetSpec pooled =
        t.withProvision(t.provided().withVia(via).withServer(TestServer.target().jdbcUrl()));
    return new ConnectionFactory(pooled, ClientSettings.defaults());
  }

  @Test
  void aClientsServerSessionIsReadOnceAndGoesWithItsConnection() throws Exception {
    ConnectionFactory cf = behind("pgbouncer:session");
    int pid;
    try (Connection c = cf.openBenchmarkClient()) {
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
        rs.next();
        pid = rs.getInt(1);
      }
      assertFalse(Wire.openServerPids().contains(pid));
      ForkServerSide.readServerSession(cf, c);
      assertTrue(Wire.openServerPids().contains(pid), Wire.openServerPids().toString());
    }
    assertFalse(Wire.openServerPids().contains(pid));
  }

  @Test
  void notInSessionModeNothingIsRead() throws Exception {
    ConnectionFactory cf = behind("pgbouncer:transaction");
    try (Connection c = cf.openBenchmarkClient()) {
      int before = Wire.openServerPids().size();
      ForkServerSide.readServerSession(cf, c);
      assertEquals(before, Wire.openServerPids().size());
    }
  }

  @Test
  void withNoSessionReadTheWaitsKeepTheModesLine() throws Exception {
    ConnectionFactory cf = behind("pgbouncer:session");
    try (Connection c = cf.openBenchmarkClient()) {
      // connected, its session not read (as a client whose read failed)
      c.close();
      ForkServerSide.readServerSession(cf, c); // on a closed connection: nothing thrown
    }
    ServerSide s = new ForkServerSide(cf).start().finish();
    assertNull(s.waits());
    assertEquals(
        "through pgbouncer in session mode the backend pid a client is told is PgBouncer's, not"
            + " its server connection's",
        s.waitsWhy());
  }

  /**
   * The note's "K of N" counts the connections asked their server session, not every counted
   * connection of the JVM: with --forks 0 another run's connection not yet closed (a direct one
   * here) is no client of this window's, and made PgBouncerTest read "4 of 5" once in three CI
   * runs.
   */
  @Test
  void anotherCountedConnectionOfTheJvmIsNotOneNotRead() throws Exception {
    ConnectionFactory cf = behind("pgbouncer:session");
    ConnectionFactory direct =
        new ConnectionFactory(TestServer.target(), ClientSettings.defaults());
    try (Connection other = direct.openBenchmarkClient();
        Connection c = cf.openBenchmarkClient()) {
      int asked = Wire.askedServerSessions();
      ForkServerSide.readServerSession(cf, c);
      assertEquals(asked + 1, Wire.askedServerSessions(), "the client is asked, the other not");
      assertTrue(Wire.openPids().size() > Wire.askedServerSessions(), "the other is counted");
    }
  }

  /**
   * A window samples its own run's clients: another factory's counted connection open in the same
   * JVM (a parallel run, a connection a finished run left to the collector) is not among them.
   */
  @Test
  void anotherRunsConnectionsAreNotThisRunsClients() throws Exception {
    ConnectionFactory mine = new ConnectionFactory(TestServer.target(), ClientSettings.defaults());
    ConnectionFactory theirs =
        new ConnectionFactory(TestServer.target(), ClientSettings.defaults());
    try (Connection a = mine.openBenchmarkClient();
        Connection b = theirs.openBenchmarkClient()) {
      int pa = a.unwrap(PGConnection.class).getBackendPID();
      int pb = b.unwrap(PGConnection.class).getBackendPID();
      assertEquals(Set.of(pa), Wire.openPids(mine.wireOwner()));
      assertEquals(Set.of(pb), Wire.openPids(theirs.wireOwner()));
      assertTrue(Wire.openPids().containsAll(Set.of(pa, pb)), "the JVM's are both");
    }
  }

  @Test
  void theNoteCountsTheConnectionsNotRead() {
    assertTrue(ForkServerSide.sessionNote(3, 3).endsWith("as each connected"));
    assertTrue(ForkServerSide.sessionNote(2, 3).endsWith("(2 of 3 connections)"));
  }
}
