package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every insert variant, fed the same seed, inserts the same rows: each loads into its own copy of
 * pgbench_history (a schema per variant, reached through search_path) and the row sets are compared
 * as multisets.
 */
class InsertVariantsTest {
  static final int CLIENTS = 2;
  static final int OPS = 150;

  /** variant name -> (workload, rewriteBatchedInserts) */
  static Map<String, Object[]> variants() {
    Map<String, Object[]> v = new LinkedHashMap<>();
    v.put("insert8", new Object[] {ScriptWorkload.builtin("insert8"), false});
    v.put("insert8_multirow", new Object[] {ScriptWorkload.builtin("insert8_multirow"), false});
    v.put(
        "insert_batch", new Object[] {new InsertWorkload(InsertWorkload.Variant.BATCH, 8), false});
    v.put(
        "insert_batch_rewrite",
        new Object[] {new InsertWorkload(InsertWorkload.Variant.BATCH, 8), true});
    v.put(
        "insert_multirow",
        new Object[] {new InsertWorkload(InsertWorkload.Variant.MULTIROW, 8), false});
    v.put("insert_copy", new Object[] {new InsertWorkload(InsertWorkload.Variant.COPY, 8), false});
    return v;
  }

  @Test
  void everyVariantInsertsTheSameRows() throws SQLException {
    PgbenchData.reset();
    for (Map.Entry<String, Object[]> e : variants().entrySet()) {
      String schema = "iv_" + e.getKey();
      try (Connection c = TestServer.connect();
          Statement st = c.createStatement()) {
        st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        st.execute("CREATE SCHEMA " + schema);
        st.execute("CREATE TABLE " + schema + ".pgbench_history (LIKE public.pgbench_history)");
      }
      Workload w = (Workload) e.getValue()[0];
      boolean rewrite = (Boolean) e.getValue()[1];
      DriverKnobs driver =
          new DriverKnobs(
              null, null, Map.of(), rewrite ? Map.of("reWriteBatchedInserts", "true") : Map.of());
      ClientSettings settings =
          new ClientSettings(QueryMode.PREPARED, null, Map.of("search_path", schema), driver);
      ConnectionFactory cf = new ConnectionFactory(TestServer.target(), settings);
      for (int client = 0; client < CLIENTS; client++) {
        ClientContext ctx =
            new ClientContext(client, CLIENTS, 1, 42L, 1, false, Map.of(), 8, false);
        try (Connection c = cf.openClient();
            ClientSession s = w.open(ctx)) {
          ErrorSamples stats = new ErrorSamples();
          for (int i = 0; i < OPS; i++) {
            assertTrue(
                s.runOp(c, new OpCounts(), stats), e.getKey() + " op failed: " + stats.samples());
          }
        }
      }
      assertEquals(
          CLIENTS * OPS * 8L,
          PgbenchData.scalar("SELECT count(*) FROM " + schema + ".pgbench_history"),
          e.getKey());
    }
    List<String> names = List.copyOf(variants().keySet());
    for (String other : names.subList(1, names.size())) {
      for (String[] pair : new String[][] {{names.get(0), other}, {other, names.get(0)}}) {
        long diff =
            PgbenchData.scalar(
                "SELECT count(*) FROM (SELECT tid, bid, aid, delta FROM iv_"
                    + pair[0]
                    + ".pgbench_history"
                    + " EXCEPT ALL SELECT tid, bid, aid, delta FROM iv_"
                    + pair[1]
                    + ".pgbench_history) d");
        assertEquals(0, diff, "rows of " + pair[0] + " missing from " + pair[1]);
      }
    }
    // the rows really are the random, distinct ops they should be, not all one value
    assertTrue(
        PgbenchData.scalar("SELECT count(DISTINCT aid) FROM iv_insert_copy.pgbench_history")
            > CLIENTS * OPS * 0.95);
    for (String n : names) {
      assertEquals(
          0,
          PgbenchData.scalar(
              "SELECT count(*) FROM iv_" + n + ".pgbench_history WHERE mtime IS NULL"),
          n);
    }
  }
}
