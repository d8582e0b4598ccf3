package dev.wg1bench.load.ssb;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.server.ConnectionFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.postgresql.util.PSQLException;

/**
 * The SSB tables' DDL: created from the shipped schema, partitioned or not; their keys and indexes,
 * built on several connections at once.
 */
final class SsbSchema {
  private SsbSchema() {}

  /** Drops and creates the tables in one transaction: either the old ones or the new ones. */
  static void create(Connection c, SsbLoader.Options o) throws SQLException {
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      st.execute(
          "DROP TABLE IF EXISTS " + SsbLoader.META + ", " + String.join(", ", SsbLoader.TABLES));
      for (String ddl : statements("ssb/schema.sql")) {
        if (o.scaleFactor() > SsbLoader.BIGINT_ORDERKEY_SCALE) {
          ddl = ddl.replace("lo_orderkey       INTEGER", "lo_orderkey       BIGINT");
        }
        if (o.partitioned() && ddl.startsWith("CREATE TABLE lineorder")) {
          ddl += " PARTITION BY RANGE (lo_orderdate)";
        } else if (o.partitioned() && ddl.startsWith("CREATE TABLE date")) {
          ddl += " PARTITION BY RANGE (d_datekey)";
        }
        st.execute(ddl);
      }
      if (o.partitioned()) {
        for (String p : partitionStatements()) {
          st.execute(p);
        }
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw new RunFailure(
          "init ssb could not (re)create the SSB tables: "
              + describe(e)
              + "; rolled back, nothing was changed",
          e);
    } finally {
      c.setAutoCommit(true);
    }
  }

  /** The server's message with its DETAIL (e.g. which view depends on a table), on one line. */
  static String describe(SQLException e) {
    String m = ConnectionFactory.oneLine(e);
    if (e instanceof PSQLException p
        && p.getServerErrorMessage() != null
        && p.getServerErrorMessage().getDetail() != null) {
      m += " (" + p.getServerErrorMessage().getDetail().replace('\n', ' ') + ")";
    }
    return m;
  }

  /** 84 monthly partitions 1992-01 .. 1998-12 of lineorder and date (2020 §6.5.4.5.2). */
  static List<String> partitionStatements() {
    List<String> out = new ArrayList<>();
    for (String[] t : new String[][] {{"lineorder", "lineorder"}, {"date", "date"}}) {
      LocalDate m = LocalDate.of(1992, 1, 1);
      for (int i = 0; i < 84; i++) {
        LocalDate next = m.plusMonths(1);
        out.add(
            String.format(
                Locale.ROOT,
                "CREATE TABLE %s_%04d%02d PARTITION OF %s FOR VALUES FROM (%d) TO (%d)",
                t[0],
                m.getYear(),
                m.getMonthValue(),
                t[1],
                key(m),
                key(next)));
        m = next;
      }
    }
    return out;
  }

  private static int key(LocalDate d) {
    return d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth();
  }

  static List<String> keyStatements(boolean partitioned) {
    List<String> out = new ArrayList<>();
    for (String s : statements("ssb/keys.sql")) {
      if (partitioned) {
        s = s.replace("(lo_orderkey, lo_linenumber)", "(lo_orderkey, lo_linenumber, lo_orderdate)");
      }
      out.add(s);
    }
    return out;
  }

  /** The statements of a DDL resource, comments removed, split at semicolons. */
  static List<String> statements(String resource) {
    String text;
    try (InputStream in = SsbSchema.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource /" + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder b = new StringBuilder();
    for (String line : text.split("\n")) {
      int dash = line.indexOf("--");
      b.append(dash < 0 ? line : line.substring(0, dash)).append('\n');
    }
    List<String> out = new ArrayList<>();
    for (String s : b.toString().split(";")) {
      if (!s.isBlank()) {
        out.add(s.strip());
      }
    }
    return out;
  }

  /** Runs statements on up to n connections at once, longest (first listed) first. */
  static void runParallel(ConnectionFactory cf, List<String> sqls, int n) throws SQLException {
    ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>(sqls);
    int k = Math.max(1, Math.min(n, sqls.size()));
    ExecutorService pool = Executors.newFixedThreadPool(k, SsbLoader.daemon("ssb-ddl"));
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<Void>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < k; i++) {
        futures.add(
            pool.submit(
                () -> {
                  try (Connection c = cf.openPlain();
                      Statement st = c.createStatement()) {
                    // A sort in memory instead of on disk for the key and index builds.
                    st.execute("SET maintenance_work_mem = '256MB'");
                    String s;
                    while (!failed.get() && (s = queue.poll()) != null) {
                      st.execute(s);
                    }
                  } catch (SQLException | RuntimeException e) {
                    failed.set(true);
                    throw e;
                  }
                  return null;
                }));
      }
      for (Future<Void> f : futures) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RunFailure("interrupted", e);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof SQLException s) {
            throw s;
          }
          throw new RunFailure(ConnectionFactory.oneLine(e.getCause()), e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
