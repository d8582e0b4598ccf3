package dev.wg1bench.replay.play;

import com.zaxxer.hikari.HikariDataSource;
import dev.wg1bench.replay.capture.LoggedSession;
import dev.wg1bench.replay.capture.LoggedStatement;
import dev.wg1bench.server.ConnectionFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * One captured session replayed on its own thread: its statements in the log's order, each when the
 * clock (scaled by the speed) and the {@link OrderGate} between sessions let it go, every outcome
 * judged against the log's. A session marks each of its starts and ends in the order as it passes
 * them, and all that is left of them when it ends early, so no other session waits for it forever.
 */
final class SessionThread {
  private final TrialPlayer replayer;
  private final ReplayStats stats;
  private final LoggedSession session;
  private final List<LoggedStatement> statements;
  private final int index;
  private final Schedule schedule;
  private final OrderGate order;
  private final Sessions live;
  private final String database;
  private final boolean pooled;
  private final boolean perTransaction;

  /** What the session's statements carried on the wire: round trips, bytes, statements, rows. */
  private final StatementWire wire = new StatementWire();

  /** Statements whose start and end are marked in the order: all before this index. */
  private int marked;

  /**
   * Without a pool the connection is opened ahead of its time ({@link ConnectLead}) and then takes
   * its place in the order; with one, the starting thread waits for that place ({@link
   * #awaitConnect}) and the session takes a pooled connection when it is due.
   */
  private final boolean opensAhead;

  /** Whether the connection's start is marked in the order (opened ahead: by this thread). */
  private boolean placed;

  /** The session's connection while it has one (per transaction: between its transactions none). */
  private Connection conn;

  /** Set when the session's connection was lost, or never opened. */
  private boolean lost;

  /** nanoTime at which the starting thread started this session's thread. */
  long startedAt;

  /**
   * Set when the pool could not give the capture's concurrency and the watchdog let this session go
   * without its order: it marks its starts and ends but no longer waits.
   */
  private boolean detached;

  SessionThread(
      TrialPlayer replayer,
      LoggedSession session,
      int index,
      Schedule schedule,
      OrderGate order,
      Sessions live) {
    this.replayer = replayer;
    this.stats = replayer.stats;
    this.session = session;
    this.statements = session.statements();
    this.index = index;
    this.schedule = schedule;
    this.order = order;
    this.live = live;
    this.database = replayer.config.mapDatabase().get(session.database());
    this.pooled = replayer.config.poolSize() != null;
    this.perTransaction = pooled && replayer.config.poolMode() == PoolMode.TRANSACTION;
    this.opensAhead = !pooled;
  }

  /**
   * On the starting thread, with a pool: waits for the order of the session's connection; false if
   * stopped.
   */
  boolean awaitConnect() {
    if (!inOrder(0, "connection of session " + session.id())) {
      return false;
    }
    order.started(schedule.startRank[index][0]);
    return true;
  }

  void run() {
    stats.sessionsStarted.incrementAndGet();
    stats.active.incrementAndGet();
    live.set(index, Sessions.RUNNING);
    try {
      if (!perTransaction) {
        conn = connect();
        lost = conn == null;
      }
      if (opensAhead) {
        placeOnceConnected();
      }
      while (!lost && marked < statements.size() && !stopped() && playNext()) {
        // each statement in its own call: compiled as a method, not only as this loop
      }
      if (!lost && !stopped() && !pooled && session.disconnected() != null) {
        // the session stays connected until it disconnected in the log, as pgreplay keeps it
        live.set(index, Sessions.SLEEPING);
        replayer.waitUntil(replayer.due(session.disconnected()));
      }
      if (!lost && !stopped()) {
        stats.sessionsCompleted.incrementAndGet();
      }
    } catch (SQLException e) {
      lost = true;
    } finally {
      if (opensAhead) {
        takePlace();
      }
      release(conn, lost);
      stats.wire(wire.counts());
      abandon();
      live.set(index, Sessions.DONE);
      stats.active.decrementAndGet();
    }
  }

  /**
   * A connection opened ahead: its connect timed for the next leads ({@link ConnectLead}), then it
   * waits for its place in the order (the starts before it in the log, and what ended before it).
   */
  private void placeOnceConnected() {
    if (!lost) {
      replayer.connectLead.took(System.nanoTime() - startedAt);
      inOrder(0, "connection of session " + session.id());
    }
    takePlace();
  }

  /**
   * The next statement: skipped as said before the replay, or sent when it is due and the order
   * lets it go; false when the session goes no further (stopped, or its connection lost).
   */
  private boolean playNext() throws SQLException {
    LoggedStatement st = statements.get(marked);
    if (st.skip() != null) {
      stats.outcomes.skipped(st.skip());
      markNext();
      replayer.ids.learnAfter(conn, index, marked - 1);
      return true;
    }
    live.set(index, Sessions.SLEEPING);
    long due = replayer.due(st.time());
    if (!replayer.waitUntil(due) || !inOrder(marked + 1, st.where())) {
      return false;
    }
    if (conn == null) {
      conn = connect();
      if (conn == null) {
        lost = true;
        return false;
      }
    }
    lost = send(conn, replayer.ids.sending(st, conn, index, marked), due);
    if (!lost) {
      replayer.ids.learnAfter(conn, index, marked - 1);
    }
    live.inTransaction(index, !lost && StatementSender.inTransaction(conn));
    if (!lost && perTransaction && !StatementSender.inTransaction(conn)) {
      live.holds(index, false);
      conn.close();
      conn = null;
    }
    return true;
  }

  /** Sends one statement; true when its connection was lost with it. */
  private boolean send(Connection c, LoggedStatement st, long due) {
    order.started(schedule.startRank[index][marked + 1]);
    if (replayer.config.speed() != 0) {
      // the lag of its start: a wait for its lock's grant below is the capture's own wait
      stats.lag((System.nanoTime() - due) / 1000);
    }
    if (!awaitGrant(st)) {
      return false;
    }
    live.set(index, Sessions.RUNNING);
    int endRank = schedule.endRank[index][marked];
    if (schedule.endLetsGo[endRank]) {
      // a COMMIT on its way: what waited for its locks in the capture may queue for them now
      order.releasing(endRank);
    }
    // a statement of one of the log's deadlocks: its cycle's order kept (DeadlockSteer)
    boolean steer = replayer.deadlocks.involves(index, marked);
    boolean inBlock = steer && StatementSender.inTransaction(c);
    String partnerWas = steer ? steer(replayer.deadlocks::partner, c, st) : null;
    String victimWas = steer ? steer(replayer.deadlocks::victim, c, st) : null;
    wire.before();
    long begin = System.nanoTime();
    StatementSender.Sent sent = StatementSender.send(c, st, replayer.routes[index][marked]);
    long finish = System.nanoTime();
    wire.after();
    if (steer) {
      replayer.deadlocks.cameBack(index);
    }
    if (steer && !sent.connectionLost()) {
      // the victim's setting first: it was set over the partner's
      steered(c, victimWas, !sent.ok() && inBlock);
      steered(c, partnerWas, !sent.ok() && inBlock);
    }
    order.ended(schedule.endRank[index][marked], finish);
    replayer.proofs.cameBack(index, marked, sent.ok(), sent.affected(), finish);
    marked++;
    stats.window(begin, finish);
    String error = sent.ok() ? null : sent.outcome();
    stats.ran(
        replayer.classes[index][marked - 1],
        (finish - begin) / 1000,
        sent.affected(),
        sent.returned(),
        error);
    stats.statements.incrementAndGet();
    if (error != null) {
      stats.error(error);
      if (sent.sentTwice()) {
        stats.error(error); // the server ran it, and failed it, twice
      }
    }
    int ended = replayer.txEnds[index][marked - 1];
    if (ended > 0) {
      stats.transactions.addAndGet(ended);
    }
    stats.outcomes.compared(session, st, sent);
    if (sent.connectionLost()) {
      stats.sessionsFailed.incrementAndGet();
    }
    return sent.connectionLost();
  }

  /**
   * For a statement that can wait for a row lock: waits, once started, until what ended before it
   * got the lock has ended, so the server grants the row in the capture's order ({@link
   * LockWaits}); false if stopped.
   */
  private boolean awaitGrant(LoggedStatement st) {
    int needs = schedule.grantNeeds[index][marked];
    if (needs < 0 || detached) {
      return !stopped();
    }
    long waited = awaitOrder(0, needs, OrderGate.Needs.RELEASES, st.where());
    if (waited >= 0) {
      stats.grantWaits.incrementAndGet();
      stats.grantWaitedNanos.addAndGet(waited);
    }
    live.set(index, Sessions.RUNNING);
    return !stopped();
  }

  /**
   * For a statement of a deadlock's cycle in the log, one step of keeping its victim ({@link
   * DeadlockSteer#partner}, {@link DeadlockSteer#victim}); returns the setting to put back, or
   * null.
   */
  private String steer(DeadlockSteer.Step step, Connection c, LoggedStatement st) {
    try {
      return step.take(c, order, index, marked, cycleWaits(st));
    } catch (SQLException e) {
      return null; // the statement itself meets what failed here (its connection lost)
    } finally {
      live.set(index, Sessions.RUNNING);
    }
  }

  private DeadlockSteer.Waits cycleWaits(LoggedStatement st) {
    return new DeadlockSteer.Waits(
        st.where(),
        replayer::due,
        replayer.config.stop(),
        () -> live.set(index, Sessions.ORDER),
        live);
  }

  private static void steered(Connection c, String was, boolean failedInBlock) {
    try {
      DeadlockSteer.after(c, was, failedInBlock);
    } catch (SQLException e) {
      // the next statement meets a lost connection; a setting not put back changes only this
      // session's later deadlock checks
    }
  }

  /** Waits for the order of start {@code position} (0 the connection, i + 1 statement i). */
  private boolean inOrder(int position, String where) {
    if (detached) {
      return !stopped();
    }
    int rank = schedule.startRank[index][position];
    // a start out of the order's starts waits for none of them (OrderedEvents)
    // an INSERT waits for the DELETEs before it too: they may hold its key
    boolean keys = position > 0 && schedule.waitsForKeys[index][position - 1];
    awaitOrder(
        schedule.startOrders[rank] ? schedule.startsNeeded[index][position] : 0,
        schedule.endsNeeded[index][position],
        keys ? OrderGate.Needs.KEYS : OrderGate.Needs.ENDS,
        where);
    return !stopped();
  }

  /**
   * Waits at the order until the starts below {@code startRank} and {@code endsNeeded} ends are
   * done; counts a wait that was not free and returns how long it took in ns, or -1 when free.
   */
  private long awaitOrder(int startRank, int endsNeeded, OrderGate.Needs needs, String where) {
    long t = System.nanoTime();
    OrderGate.Wait w =
        order.await(
            index,
            startRank,
            endsNeeded,
            needs,
            where,
            replayer.config.stop(),
            () -> live.set(index, Sessions.ORDER));
    detached = w == OrderGate.Wait.BROKEN_BY_POOL;
    if (w == OrderGate.Wait.FREE) {
      return -1;
    }
    long waited = System.nanoTime() - t;
    stats.orderWaits.incrementAndGet();
    stats.orderWaitedNanos.addAndGet(waited);
    return waited;
  }

  /** The session's connection, its own or a pooled one; null when it could not be had. */
  private Connection connect() {
    long start = System.nanoTime();
    try {
      Connection c;
      if (pooled) {
        live.set(index, Sessions.POOL);
        HikariDataSource pool = replayer.pool(database);
        c = pool.getConnection();
        stats.poolWait((System.nanoTime() - start) / 1000);
      } else {
        c = replayer.factory(database, session.applicationName()).openBenchmarkClient();
      }
      live.pid(index, c.unwrap(PGConnection.class).getBackendPID());
      wire.on(c);
      live.holds(index, true);
      live.set(index, Sessions.RUNNING);
      return c;
    } catch (SQLException e) {
      stats.sessionsFailed.incrementAndGet();
      stats.error("connect " + (e.getSQLState() == null ? "XX000" : e.getSQLState()));
      return null;
    }
  }

  /**
   * Gives the connection back. A pooled one goes back outside any transaction (rolled back when the
   * session ended inside one, as the server does when a client disconnects) and, in session mode,
   * reset, so no session inherits another's block or state.
   */
  private void release(Connection c, boolean lost) {
    if (c == null) {
      return;
    }
    live.holds(index, false);
    try {
      if (pooled && !lost) {
        try (Statement st = ConnectionFactory.unnamed(c.createStatement())) {
          if (StatementSender.inTransaction(c)) {
            st.execute("ROLLBACK");
            stats.rolledBack.incrementAndGet();
          }
          if (!perTransaction) {
            st.execute("DISCARD ALL");
            stats.reset.incrementAndGet();
            // DISCARD ALL resets every setting: the next session starts with the replay's own
            replayer.factory(database, null).applySessionSettings(c);
          }
        }
      }
    } catch (SQLException e) {
      lost = true;
    } finally {
      try {
        if (lost && pooled) {
          replayer.pool(database).evictConnection(c);
        } else {
          c.close();
        }
      } catch (SQLException | RuntimeException e) {
        // a broken connection: nothing more to learn from it
      }
    }
  }

  /**
   * Marks what is left of the session done in the order, so no session waits for it; statements
   * never sent because the connection was lost are divergences (a stop by the user is not).
   */
  private void abandon() {
    boolean count = !stopped();
    while (marked < statements.size()) {
      LoggedStatement st = statements.get(marked);
      if (count) {
        if (st.skip() != null) {
          stats.outcomes.skipped(st.skip());
        } else {
          stats.outcomes.notRun(session, st);
        }
      }
      markNext();
    }
    order.ended(schedule.endRank[index][statements.size()]);
  }

  /** Marks the connection's start in the order and gives back its slot ahead, once. */
  private void takePlace() {
    if (!placed) {
      placed = true;
      order.started(schedule.startRank[index][0]);
      replayer.slotsAhead.release();
    }
  }

  private void markNext() {
    order.started(schedule.startRank[index][marked + 1]);
    order.ended(schedule.endRank[index][marked]);
    marked++;
  }

  private boolean stopped() {
    return replayer.config.stop().get();
  }
}
