package dev.wg1bench.load.ssb;

import dev.wg1bench.load.Progress;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.server.ConnectionFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The generate+copy phase of {@link SsbLoader}: the generator's rows streamed into COPY over
 * several connections, each in one transaction, all committed only when every stream copied all its
 * rows (a failed or interrupted load leaves the tables as they were after the TRUNCATE).
 */
final class SsbCopy {
  /** Generated per COPY write: about 4 MB of lineorder text. */
  private static final long ORDERS_PER_BLOCK = 10_000;

  private static final long ROWS_PER_BLOCK = 32_768;

  /** Approximate COPY bytes per unit (row, or order for lineorder), to balance the streams. */
  private static final Map<SsbTable, Integer> BYTES_PER_UNIT =
      new EnumMap<>(
          Map.of(
              SsbTable.PART, 80,
              SsbTable.SUPPLIER, 100,
              SsbTable.CUSTOMER, 115,
              SsbTable.DATE, 130,
              SsbTable.LINEORDER, 430));

  private SsbCopy() {}

  /**
   * Assigns the work to n connections: every dimension table whole to one connection (so it can be
   * loaded with FREEZE), lineorder cut into order ranges sized so the connections carry about the
   * same number of bytes.
   */
  static List<List<Chunk>> plan(SsbGenerator g, int n) {
    List<List<Chunk>> shares = new ArrayList<>();
    long[] load = new long[n];
    for (int i = 0; i < n; i++) {
      shares.add(new ArrayList<>());
    }
    long smallBytes = 0;
    for (SsbTable t : SsbTable.values()) {
      if (t != SsbTable.LINEORDER) {
        smallBytes += g.unitCount(t) * BYTES_PER_UNIT.get(t);
      }
    }
    long orders = g.unitCount(SsbTable.LINEORDER);
    long perOrder = BYTES_PER_UNIT.get(SsbTable.LINEORDER);
    long total = orders * perOrder + smallBytes;
    // The dimension tables go to the last connection, which takes fewer orders to make up.
    long first = 1;
    for (int i = 0; i < n && first <= orders; i++) {
      long target = total / n - (i == n - 1 ? smallBytes : 0);
      long take = i == n - 1 ? orders - first + 1 : Math.max(1, target / perOrder);
      long last = Math.min(orders, first + take - 1);
      shares.get(i).add(new Chunk(SsbTable.LINEORDER, first, last));
      load[i] += (last - first + 1) * perOrder;
      first = last + 1;
    }
    for (SsbTable t : SsbTable.values()) {
      if (t != SsbTable.LINEORDER) {
        // Before lineorder on its connection: COPY FREEZE right after the TRUNCATE.
        shares.get(n - 1).add(0, g.all(t));
      }
    }
    return shares;
  }

  static Map<String, Long> copyAll(
      ConnectionFactory cf, SsbGenerator g, SsbLoader.Options o, PrintStream log)
      throws SQLException {
    int n = o.threads();
    List<List<Chunk>> shares = plan(g, n);
    Map<SsbTable, AtomicLong> rows = new EnumMap<>(SsbTable.class);
    for (SsbTable t : SsbTable.values()) {
      rows.put(t, new AtomicLong());
    }
    long expected = 0;
    for (SsbTable t : SsbTable.values()) {
      expected += g.rowCount(t);
    }
    AtomicBoolean abort = new AtomicBoolean();
    CountDownLatch copied = new CountDownLatch(n);
    ExecutorService pool = Executors.newFixedThreadPool(n, SsbLoader.daemon("ssb-load"));
    List<Future<Void>> futures = new ArrayList<>();
    try (Progress progress = log == null ? null : Progress.start("generate+copy", expected, log)) {
      for (int i = 0; i < n; i++) {
        List<Chunk> share = shares.get(i);
        futures.add(
            pool.submit(
                () -> {
                  stream(cf, g, share, o.partitioned(), rows, progress, abort, copied);
                  return null;
                }));
      }
      Throwable first = null;
      for (Future<Void> f : futures) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          abort.set(true);
          first = first == null ? e : first;
        } catch (ExecutionException e) {
          abort.set(true);
          first = first == null ? e.getCause() : first;
        }
      }
      if (first != null) {
        if (first instanceof SQLException s) {
          throw s;
        }
        if (first instanceof RuntimeException r) {
          throw r;
        }
        throw new RunFailure(ConnectionFactory.oneLine(first), first);
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (SsbTable t : SsbTable.values()) {
      out.put(t.tableName(), rows.get(t).get());
    }
    return out;
  }

  /**
   * One connection: copies its chunks in one transaction, waits until every connection has finished
   * copying, then commits, or rolls back if any failed.
   */
  private static void stream(
      ConnectionFactory cf,
      SsbGenerator g,
      List<Chunk> share,
      boolean partitioned,
      Map<SsbTable, AtomicLong> rows,
      Progress progress,
      AtomicBoolean abort,
      CountDownLatch copied)
      throws SQLException, IOException, InterruptedException {
    boolean counted = false;
    try (Connection c = cf.openPlain()) {
      c.setAutoCommit(false);
      boolean ok = false;
      try {
        try (Statement st = c.createStatement()) {
          for (Chunk chunk : share) {
            SsbTable t = chunk.table();
            boolean whole = chunk.firstRow() == 1 && chunk.lastRow() == g.unitCount(t);
            // FREEZE: the table must be truncated in this transaction; not for partitioned ones.
            boolean partitionedTable =
                partitioned && (t == SsbTable.LINEORDER || t == SsbTable.DATE);
            boolean freeze = whole && !partitionedTable;
            if (freeze) {
              st.execute("TRUNCATE " + t.tableName());
            }
            copy(c, g, chunk, freeze, rows.get(t), progress, abort);
          }
        }
        ok = true;
      } catch (SQLException | IOException | RuntimeException e) {
        abort.set(true);
        throw e;
      } finally {
        copied.countDown();
        counted = true;
        // Commit only when every connection copied all its rows: all or nothing.
        copied.await();
        if (!ok || abort.get()) {
          c.rollback();
        }
      }
      if (!abort.get()) {
        c.commit();
      }
    } finally {
      if (!counted) {
        abort.set(true);
        copied.countDown();
      }
    }
  }

  private static void copy(
      Connection c,
      SsbGenerator g,
      Chunk chunk,
      boolean freeze,
      AtomicLong rows,
      Progress progress,
      AtomicBoolean abort)
      throws SQLException, IOException {
    String sql =
        "COPY "
            + chunk.table().tableName()
            + " FROM STDIN (FORMAT text, DELIMITER '|'"
            + (freeze ? ", FREEZE" : "")
            + ")";
    CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
    try {
      CopyStream out = new CopyStream(in, rows, progress, abort);
      long per = chunk.table() == SsbTable.LINEORDER ? ORDERS_PER_BLOCK : ROWS_PER_BLOCK;
      for (long f = chunk.firstRow(); f <= chunk.lastRow(); f += per) {
        g.writeCopyText(new Chunk(chunk.table(), f, Math.min(chunk.lastRow(), f + per - 1)), out);
      }
      in.endCopy();
    } finally {
      if (in.isActive()) {
        in.cancelCopy();
      }
    }
  }
}
