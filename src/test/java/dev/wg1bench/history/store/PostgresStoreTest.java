package dev.wg1bench.history.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.analysis.Series;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history a team shares: a schema in a PostgreSQL database, made and migrated by version. */
class PostgresStoreTest {
  @TempDir Path home;

  @Test
  void theSchemaIsCreatedOnFirstUseAndASecondOpenMigratesNothing() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      try (Connection c = db.connect()) {
        assertFalse(exists(c), "a fresh database has no history schema");
      }
      StoredRun stored;
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        assertEquals(PostgresStore.VERSION, ((PostgresStore) s).migrationsApplied());
        assertFalse(s.describe().matches(".*password=(?!\\*{4}).*"), s.describe());
        stored = s.append(Appender.run("one", 3)).run();
      }
      String appliedAt;
      try (Connection c = db.connect()) {
        assertTrue(exists(c));
        appliedAt =
            one(
                c,
                "SELECT string_agg(version || '@' || applied_at, ',') FROM "
                    + PostgresStore.SCHEMA
                    + ".schema_version");
      }
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        assertEquals(0, ((PostgresStore) s).migrationsApplied(), "the schema was current");
        List<StoredRun> runs = s.runs();
        assertEquals(1, runs.size());
        StoredRun r = runs.get(0);
        assertEquals(stored.id(), r.id());
        assertEquals(stored.time(), r.time());
        assertEquals("one", r.attributes().get("tag"));
        assertEquals(
            stored.metrics(),
            List.copyOf(
                r.metrics().stream()
                    .sorted(java.util.Comparator.comparing(StoredMetric::metric).reversed())
                    .toList()),
            "every figure as appended, NaN intervals included");
        Series tps = s.series("*/tps").get(0);
        assertEquals(1003, tps.points().get(0).value());
        assertEquals(993, tps.points().get(0).low());
        assertEquals(1013, tps.points().get(0).high());
        assertFalse(s.series("*/p99").get(0).points().get(0).hasInterval());
      }
      try (Connection c = db.connect()) {
        assertEquals(
            appliedAt,
            one(
                c,
                "SELECT string_agg(version || '@' || applied_at, ',') FROM "
                    + PostgresStore.SCHEMA
                    + ".schema_version"),
            "no migration re-applied");
      }
    }
  }

  @Test
  void aSchemaFromANewerVersionIsRefusedAndNothingIsWritten() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        s.append(Appender.run("before", 1));
      }
      try (Connection c = db.connect();
          Statement st = c.createStatement()) {
        st.execute(
            "INSERT INTO "
                + PostgresStore.SCHEMA
                + ".schema_version (version) VALUES ("
                + (PostgresStore.VERSION + 1)
                + ")");
      }
      Exception e = assertThrows(Exception.class, () -> HistoryStores.open(db.url, home));
      assertInstanceOf(NewerFormatException.class, e);
      assertTrue(e.getMessage().contains("newer than this wg1bench knows"), e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
      try (Connection c = db.connect()) {
        assertEquals("1", one(c, "SELECT count(*) FROM " + PostgresStore.SCHEMA + ".run"));
      }
    }
  }

  @Test
  void concurrentWritersInThreadsAndProcessesLoseNoRun() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      // the first use itself is concurrent: every writer opens a history not made yet
      Map<String, String> stored = new HashMap<>(Writers.append(db.url, home, 4, 2, 10));
      assertEquals(60, stored.size(), "60 appends, 60 distinct ids");
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        List<StoredRun> runs = s.runs();
        assertEquals(60, runs.size());
        for (StoredRun r : runs) {
          assertEquals(stored.get(r.id()), r.attributes().get("tag"));
          assertEquals(2, r.metrics().size(), "a run and its metrics go in together");
        }
        assertEquals(60, s.series("*/tps").get(0).points().size());
      }
      try (Connection c = db.connect()) {
        assertEquals(
            String.valueOf(PostgresStore.VERSION),
            one(c, "SELECT count(*) FROM " + PostgresStore.SCHEMA + ".schema_version"),
            "the schema made once");
      }
    }
  }

  @Test
  void copiesAnOlderWg1benchStoredAreReadOnceAndNotAddedTo() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      StoredRun run = Appender.run("old", 3);
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        s.append(run);
      }
      // what a wg1bench before ids were made from the run left: the same run under other ids
      try (Connection c = db.connect();
          Statement st = c.createStatement()) {
        for (String copy : List.of("20250101T000000.000000Z-00000001", "zz-later-copy")) {
          String t = PostgresStore.SCHEMA;
          st.execute(
              "INSERT INTO "
                  + t
                  + ".run (id, time, kind, attributes) SELECT '"
                  + copy
                  + "', time, kind, attributes FROM "
                  + t
                  + ".run LIMIT 1");
          st.execute(
              "INSERT INTO "
                  + t
                  + ".metric SELECT '"
                  + copy
                  + "', config, metric,"
                  + " higher_is_better, value, low, high FROM "
                  + t
                  + ".metric"
                  + " WHERE run_id = (SELECT min(run_id) FROM "
                  + t
                  + ".metric)");
        }
      }
      try (HistoryStore s = HistoryStores.open(db.url, home)) {
        assertEquals(1, s.runs().size(), "three copies read as one run");
        assertEquals(1, s.series("*/tps").get(0).points().size());
        assertTrue(s.append(run).alreadyStored(), "and it is not stored a fourth time");
        assertTrue(new AppendOnce(s).append(run).alreadyStored());
      }
      try (Connection c = db.connect()) {
        assertEquals(
            "3",
            one(c, "SELECT count(*) FROM " + PostgresStore.SCHEMA + ".run"),
            "nothing deleted");
      }
    }
  }

  private static boolean exists(Connection c) throws Exception {
    return "t".equals(one(c, "SELECT to_regnamespace('" + PostgresStore.SCHEMA + "') IS NOT NULL"));
  }

  private static String one(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
