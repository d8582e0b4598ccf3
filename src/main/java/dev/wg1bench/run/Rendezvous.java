package dev.wg1bench.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.AgentSpec;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.Target;
import dev.wg1bench.server.Targets;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the agents of a run meet without infrastructure of their own: through two small tables in the
 * target database. Each agent measures its clock against the server's {@code clock_timestamp()},
 * arrives at every trial, and once all N have arrived one of them fixes the measurement start on
 * the server's clock; each converts it to its own clock. Each agent's result ends up in its row,
 * where {@code merge --from-target} reads it.
 */
public final class Rendezvous implements AutoCloseable {
  /** Rows of the agents: arrivals, clocks, state, and each one's result once done. */
  public static final String AGENTS = "wg1bench_agents";

  /** The measurement start of each trial, fixed once by whichever agent sees all arrived. */
  public static final String STARTS = "wg1bench_agent_starts";

  /**
   * Between fixing the start and the warmup: the agents' forks are already connected and held
   * (jmh.AgentGate), so this covers the others' next poll (100 ms), the file hand-over and the
   * warmup's head start (1 s).
   */
  static final Duration LEAD = Duration.ofMillis(1500);

  private static final long POLL_MS = 100;
  private static final int PROBES = 7;

  private final AgentSpec spec;
  private final ConnectionFactory cf;
  private final PrintStream out;
  private Connection c;
  private double offsetMs;
  private double rttMs = Double.MAX_VALUE;

  public Rendezvous(AgentSpec spec, ConnectionFactory cf, PrintStream out) {
    this.spec = spec;
    this.cf = cf;
    this.out = out;
  }

  /** Server clock minus this host's, in ms. */
  public double offsetMs() {
    return offsetMs;
  }

  public double rttMs() {
    return rttMs;
  }

  /** Creates the tables if needed, measures the clock and registers this agent. */
  public void join(String host, long pid, int firstClient, int clients, int globalClients) {
    try {
      c = cf.openPlain();
      c.setAutoCommit(true);
      createTables();
      measureClock();
      checkSameRun(globalClients);
      register(host, pid, firstClient, clients, globalClients);
      out.printf(
          "agent %d/%d of run %s: clients %d..%d of %d, clock offset to the server %+.1f ms"
              + " (round trip %.1f ms)%n",
          spec.index(),
          spec.count(),
          spec.runId(),
          firstClient,
          firstClient + clients - 1,
          globalClients,
          offsetMs,
          rttMs);
    } catch (SQLException e) {
      throw cf.failure("joining the agents' rendezvous", e);
    }
  }

  /**
   * The agents that joined before this one split the same client count N ways: one started with
   * another N or --clients would measure a different run under the same id, so it stops here.
   */
  private void checkSameRun(int globalClients) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT state, agents, global_clients FROM " + AGENTS + " WHERE run_id = ?")) {
      ps.setString(1, spec.runId());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rs.getInt(2) != spec.count() || rs.getInt(3) != globalClients) {
            throw new UsageException(
                "--agent "
                    + spec.index()
                    + "/"
                    + spec.count()
                    + " with --clients "
                    + globalClients
                    + ": another agent of --run-id "
                    + spec.runId()
                    + " was started with --agent I/"
                    + rs.getInt(2)
                    + " and --clients "
                    + rs.getInt(3)
                    + "; every agent needs the same N and --clients");
          }
        }
      }
    }
  }

  /** This agent's row; one already there means a second agent took the same index of the run. */
  private void register(String host, long pid, int firstClient, int clients, int globalClients)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + AGENTS
                + " (run_id, agent, agents, global_clients, host, pid, first_client, clients,"
                + " offset_ms, rtt_ms, arrived, joined_at, state)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, clock_timestamp(), 'joined')"
                + " ON CONFLICT (run_id, agent) DO NOTHING")) {
      ps.setString(1, spec.runId());
      ps.setInt(2, spec.index());
      ps.setInt(3, spec.count());
      ps.setInt(4, globalClients);
      ps.setString(5, host);
      ps.setLong(6, pid);
      ps.setInt(7, firstClient);
      ps.setInt(8, clients);
      ps.setDouble(9, offsetMs);
      ps.setDouble(10, rttMs);
      if (ps.executeUpdate() == 0) {
        throw new UsageException(
            "--run-id "
                + spec.runId()
                + ": agent "
                + spec.index()
                + " of that run already joined it; give every new run its own --run-id");
      }
    }
  }

  /**
   * Arrives at trial {@code sequence} and waits for every agent; returns the agreed start of the
   * measurement on the server's clock, {@code warmup} plus {@link #LEAD} after the last arrival. An
   * agent missing at the timeout, or one that failed, fails the run on every agent.
   */
  public Instant await(int sequence, Duration warmup) {
    try {
      arrive(sequence);
      long deadline = System.nanoTime() + spec.rendezvousTimeout().toNanos();
      while (true) {
        Poll poll = poll(sequence);
        if (poll.failed() != null) {
          fail("another agent failed");
          throw new RunFailure("--agent: run " + spec.runId() + " stopped, " + poll.failed());
        }
        if (poll.arrived().size() >= spec.count()) {
          return fixStart(sequence, warmup);
        }
        if (System.nanoTime() - deadline > 0) {
          String why = notArrived(poll.arrived());
          fail(why);
          throw new RunFailure("--agent: run " + spec.runId() + " trial " + sequence + ": " + why);
        }
        Thread.sleep(POLL_MS);
      }
    } catch (SQLException e) {
      throw cf.failure("waiting for the other agents", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure("--agent: interrupted while waiting for the other agents");
    }
  }

  /** This agent's row says it reached trial {@code sequence}; the others poll for that. */
  private void arrive(int sequence) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + AGENTS
                + " SET arrived = ?, arrived_at = clock_timestamp(), state = 'arrived'"
                + " WHERE run_id = ? AND agent = ?")) {
      ps.setInt(1, sequence);
      ps.setString(2, spec.runId());
      ps.setInt(3, spec.index());
      ps.executeUpdate();
    }
  }

  /** One look at the agents' rows: who reached the trial, and the first failure if any. */
  private record Poll(List<Integer> arrived, String failed) {}

  private Poll poll(int sequence) throws SQLException {
    List<Integer> arrived = new ArrayList<>();
    String failed = null;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT agent, arrived, state, message FROM " + AGENTS + " WHERE run_id = ?")) {
      ps.setString(1, spec.runId());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rs.getString(3).equals("failed") && failed == null) {
            failed = "agent " + rs.getInt(1) + " failed: " + rs.getString(4);
          } else if (rs.getInt(2) >= sequence) {
            arrived.add(rs.getInt(1));
          }
        }
      }
    }
    return new Poll(arrived, failed);
  }

  /** Why the wait timed out, naming the agents that never arrived so the user knows which died. */
  private String notArrived(List<Integer> arrived) {
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < spec.count(); i++) {
      if (!arrived.contains(i)) {
        missing.add(i);
      }
    }
    return "only "
        + arrived.size()
        + " of "
        + spec.count()
        + " agents arrived within --rendezvous-timeout "
        + Durations.format(spec.rendezvousTimeout())
        + " (missing: agent "
        + String.join(", ", missing.stream().map(String::valueOf).toList())
        + ")";
  }

  /** What the target holds of a run: the agents' results, and why the others have none. */
  public record Collected(List<BenchmarkRun> results, Map<Integer, String> absent) {}

  /** Reads the results the agents of {@code runId} stored in the target. */
  public static Collected collect(TargetSpec spec, String runId) {
    Target t = Targets.of(spec);
    ConnectionFactory cf = t.admin();
    List<BenchmarkRun> results = new ArrayList<>();
    Map<Integer, String> absent = new TreeMap<>();
    int count = 0;
    try (Connection c = cf.openPlain();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT agent, agents, state, message, result::text, arrived FROM "
                    + AGENTS
                    + " WHERE run_id = ? ORDER BY agent")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          count = rs.getInt(2);
          String result = rs.getString(5);
          if (result != null) {
            results.add(Json.MAPPER.readValue(result, BenchmarkRun.class));
          } else {
            String state = rs.getString(3);
            absent.put(
                rs.getInt(1),
                state.equals("failed")
                    ? "failed: " + rs.getString(4)
                    : "no result: "
                        + state
                        + " at trial "
                        + rs.getInt(6)
                        + ", then stopped"
                        + " (killed or lost)");
          }
        }
      }
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) {
        throw new UsageException(
            "--from-target: no agents ever met in " + spec.name() + " (no table " + AGENTS + ")");
      }
      throw cf.failure("reading the agents' results", e);
    } catch (IOException e) {
      throw new RunFailure("--from-target: an agent's stored result is not readable: " + e, e);
    }
    if (count == 0) {
      throw new UsageException(
          "--run-id " + runId + ": no agent of that run joined in " + spec.name());
    }
    for (int i = 0; i < count; i++) {
      absent.putIfAbsent(i, "never joined the run");
    }
    results.forEach(r -> r.agents().members().forEach(m -> absent.remove(m.index())));
    return new Collected(results, absent);
  }

  /** The server-clock instant as this host's epoch ms. */
  public long toLocalEpochMs(Instant serverTime) {
    return Math.round(serverTime.toEpochMilli() - offsetMs);
  }

  /** This host's epoch ms as the server's clock. */
  public Instant toServer(long localEpochMs) {
    return Instant.ofEpochMilli(Math.round(localEpochMs + offsetMs));
  }

  /** Stores this agent's result in its row, where {@code merge --from-target} finds it. */
  public void deliver(BenchmarkRun run) {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + AGENTS
                + " SET state = 'done', finished_at = clock_timestamp(), result = ?::jsonb"
                + " WHERE run_id = ? AND agent = ?")) {
      ps.setString(1, Json.MAPPER.writeValueAsString(run));
      ps.setString(2, spec.runId());
      ps.setInt(3, spec.index());
      ps.executeUpdate();
    } catch (SQLException e) {
      throw cf.failure("storing this agent's result", e);
    } catch (JsonProcessingException e) {
      throw new RunFailure("could not write the result as JSON: " + e.getMessage(), e);
    }
  }

  /** Marks this agent failed so the others stop waiting for it. */
  public void fail(String why) {
    if (c == null) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + AGENTS
                + " SET state = 'failed', message = ?, finished_at = clock_timestamp()"
                + " WHERE run_id = ? AND agent = ? AND state <> 'failed'")) {
      ps.setString(1, why);
      ps.setString(2, spec.runId());
      ps.setInt(3, spec.index());
      ps.executeUpdate();
    } catch (SQLException e) {
      // the run is failing already; the others time out instead
    }
  }

  @Override
  public void close() {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing: nothing left to do
      }
      c = null;
    }
  }

  private Instant fixStart(int sequence, Duration warmup) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + STARTS
                + " (run_id, trial, start_at) VALUES (?, ?, clock_timestamp() + ? * interval '1"
                + " millisecond') ON CONFLICT (run_id, trial) DO NOTHING")) {
      ps.setString(1, spec.runId());
      ps.setInt(2, sequence);
      ps.setLong(3, LEAD.plus(warmup).toMillis());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT (extract(epoch FROM start_at) * 1000000)::bigint FROM "
                + STARTS
                + " WHERE run_id = ? AND trial = ?")) {
      ps.setString(1, spec.runId());
      ps.setInt(2, sequence);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long micros = rs.getLong(1);
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
      }
    }
  }

  /** The offset of the probe with the least round trip: its midpoint is the best estimate. */
  private void measureClock() throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")) {
      for (int i = 0; i < PROBES; i++) {
        long t0 = System.nanoTime();
        long local0 = System.currentTimeMillis();
        long serverMicros;
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          serverMicros = rs.getLong(1);
        }
        double rtt = (System.nanoTime() - t0) / 1e6;
        if (rtt < rttMs) {
          rttMs = rtt;
          offsetMs = serverMicros / 1000.0 - (local0 + rtt / 2);
        }
      }
    }
  }

  private void createTables() throws SQLException {
    // agents start together: one lock keeps their CREATE TABLE IF NOT EXISTS from racing
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      st.execute("SELECT pg_advisory_xact_lock(7163102416)");
      st.execute(
          "CREATE TABLE IF NOT EXISTS "
              + AGENTS
              + " (run_id text NOT NULL, agent int NOT NULL, agents int NOT NULL,"
              + " global_clients int NOT NULL, host text, pid bigint, first_client int,"
              + " clients int, offset_ms double precision, rtt_ms double precision,"
              + " arrived int NOT NULL DEFAULT 0, joined_at timestamptz, arrived_at timestamptz,"
              + " finished_at timestamptz, state text NOT NULL, message text, result jsonb,"
              + " PRIMARY KEY (run_id, agent))");
      st.execute(
          "CREATE TABLE IF NOT EXISTS "
              + STARTS
              + " (run_id text NOT NULL, trial int NOT NULL, start_at timestamptz NOT NULL,"
              + " PRIMARY KEY (run_id, trial))");
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }
}
