package dev.wg1bench.server.window;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.server.SamplerThreads;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The clients' sessions sampled from pg_stat_activity at a fixed rate, into how many samples found
 * each in which state (see {@link ServerSide.WaitShare}). The server runs the sampling ({@link
 * SamplingLoop}) on a connection of the sampler's own, in one statement for the whole window; it
 * ends when the window's connection ({@code holder}) releases the advisory lock it took here.
 */
final class WaitSampler implements AutoCloseable {
  /** Starts the sampler's transaction (so its BEGIN is before the window), notices on. */
  static final String BEGIN = ServerWindow.MARKER + " SET LOCAL client_min_messages = notice";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Callable<Connection> opener;
  private final Connection holder;
  private final int[] pids;
  private final long intervalNanos;
  private final long key = ThreadLocalRandom.current().nextLong();
  private final Thread thread;
  private volatile Connection connection;
  private volatile Statement loop;
  private volatile boolean stopping;
  private volatile String failure;

  /** The counts of the last notice read, and that notice (the chain is read on from it). */
  private Counts latest = Counts.NONE;

  private SQLWarning lastNotice;

  /**
   * Down once the sampler's connection is open and its transaction begun (or it failed): what its
   * start-up sends (pgjdbc's {@code SET application_name}, the {@code BEGIN}) is then before the
   * window's first snapshot, so none of it is a statement of the window's.
   */
  private final CountDownLatch ready = new CountDownLatch(1);

  /**
   * @param holder the window's connection: it holds the lock that keeps the loop going
   */
  WaitSampler(Callable<Connection> opener, Connection holder, int[] pids, long intervalNanos) {
    this.opener = opener;
    this.holder = holder;
    this.pids = pids.clone();
    this.intervalNanos = intervalNanos;
    this.thread = new Thread(this::run, "wg1bench-wait-sampler");
    thread.setDaemon(true);
    try (Statement st = holder.createStatement()) {
      st.execute(ServerWindow.MARKER + " SELECT pg_advisory_lock(" + key + ")");
    } catch (SQLException e) {
      failure = "the wait sampler could not start: " + ServerWindow.oneLine(e);
      ready.countDown();
      return;
    }
    thread.start();
  }

  private void run() {
    try (Connection c = opener.call()) {
      connection = c;
      ServerWindow.untracked(c);
      // one transaction for the window: a sample is no commit of the database's; rolled back
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.execute(BEGIN);
        loop = st;
        ready.countDown();
        st.execute(SamplingLoop.sql(pids, intervalNanos, key));
        read(st);
      } finally {
        c.rollback();
      }
    } catch (Exception e) {
      if (!stopping || latest == Counts.NONE) {
        failure = "the wait sampler stopped: " + ServerWindow.oneLine(e);
      }
    } finally {
      ready.countDown();
    }
  }

  /**
   * Waits until the sampler's connection is open and its transaction begun, or it failed, for at
   * most {@code ms}: a server that does not answer loses the order, not the run.
   */
  void awaitReady(long ms) {
    try {
      ready.await(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The loop's counts so far: the last notice it sent (read while it runs, and at its end). */
  private synchronized Counts read(Statement st) {
    try {
      SQLWarning w = lastNotice == null ? st.getWarnings() : lastNotice.getNextWarning();
      for (; w != null; w = w.getNextWarning()) {
        lastNotice = w;
        String m = w.getMessage();
        int at = m == null ? -1 : m.indexOf(SamplingLoop.TAG);
        if (at >= 0) {
          latest = Counts.of(JSON.readTree(m.substring(at + SamplingLoop.TAG.length())));
        }
      }
    } catch (SQLException | IOException e) {
      // a closed statement or a notice cut short: the counts read so far stand
    }
    return latest;
  }

  private Counts counts() {
    Statement st = loop;
    return st == null ? latest : read(st);
  }

  /** What the loop's notices carry: the samples taken, the rows found, the rows by name. */
  record Counts(long samples, long found, Map<String, long[]> byName) {
    static final Counts NONE = new Counts(0, 0, Map.of());

    static Counts of(JsonNode n) {
      Map<String, long[]> byName = new HashMap<>();
      n.path("counts")
          .fields()
          .forEachRemaining(
              e -> {
                JsonNode k = parse(e.getKey());
                String name = name(text(k.get(0)), text(k.get(1)), text(k.get(2)));
                byName.computeIfAbsent(name, x -> new long[1])[0] += e.getValue().asLong();
              });
      return new Counts(n.path("samples").asLong(), n.path("found").asLong(), byName);
    }

    private static JsonNode parse(String key) {
      try {
        return JSON.readTree(key);
      } catch (IOException e) {
        return JSON.createArrayNode();
      }
    }

    private static String text(JsonNode v) {
      return v == null || v.isNull() ? null : v.asText();
    }
  }

  /** What a session's row says it is doing, as one name of {@link ServerSide.WaitShare}. */
  static String name(String state, String type, String event) {
    if (state == null) {
      return "unknown";
    }
    if (state.startsWith("idle in transaction")) {
      return "idle in transaction";
    }
    if (type != null) {
      return type + ":" + event;
    }
    return state.equals("active") ? "CPU" : state;
  }

  long seen(String name) {
    long[] n = counts().byName().get(name);
    return n == null ? 0 : n[0];
  }

  long samples() {
    return counts().samples();
  }

  /** Why the shares cannot be given, or null. */
  String why() {
    Counts n = counts();
    if (failure != null && n.samples() == 0) {
      return failure;
    }
    if (n.samples() == 0) {
      return "no sample was taken in the window";
    }
    if (n.found() == 0) {
      return "none of the clients' backend pids was a session of this server (behind a pooler"
          + " the clients' pids are the pooler's, not the server's)";
    }
    long[] unknown = n.byName().get("unknown");
    if (unknown != null && unknown[0] == n.found()) {
      return "this role may not read the clients' sessions in pg_stat_activity (a superuser or"
          + " a member of pg_read_all_stats may)";
    }
    return failure;
  }

  /** The shares, largest first; null where {@link #why()} says they cannot be given. */
  List<ServerSide.WaitShare> shares() {
    Counts n = counts();
    long[] unknown = n.byName().get("unknown");
    if (n.samples() == 0 || n.found() == 0 || (unknown != null && unknown[0] == n.found())) {
      return null;
    }
    return shares(n.byName(), n.found());
  }

  static List<ServerSide.WaitShare> shares(Map<String, long[]> counts, long total) {
    List<ServerSide.WaitShare> out = new ArrayList<>();
    counts.forEach(
        (name, n) ->
            out.add(new ServerSide.WaitShare(name, kind(name), n[0], (double) n[0] / total)));
    out.sort(
        Comparator.comparingLong(ServerSide.WaitShare::samples)
            .reversed()
            .thenComparing(ServerSide.WaitShare::name));
    return out;
  }

  static String kind(String name) {
    int colon = name.indexOf(':');
    return colon < 0 ? name : name.substring(0, colon);
  }

  /**
   * Ends the loop: the lock let go, the loop's last notice read as it returns (within an interval),
   * and the thread stopped; a loop that has not returned in {@link #END_MS} is cancelled, and a
   * server that answers nothing loses the sampler's connection (SamplerThreads).
   */
  @Override
  public void close() {
    if (stopping) {
      return;
    }
    stopping = true;
    if (!thread.isAlive()) {
      return;
    }
    try (Statement st = holder.createStatement()) {
      st.execute(ServerWindow.MARKER + " SELECT pg_advisory_unlock(" + key + ")");
    } catch (SQLException e) {
      // the holder's session is gone, and its lock with it: the loop ends as well
    }
    try {
      thread.join(END_MS);
      Statement st = loop;
      if (thread.isAlive() && st != null) {
        st.cancel();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SQLException e) {
      // the cancel could not be sent: the thread is stopped below
    }
    SamplerThreads.stop(thread, () -> connection);
  }

  /** How long the loop may take to return once its lock is free: a few intervals and a reply. */
  static final long END_MS = 2_000;
}
