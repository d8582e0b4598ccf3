package dev.wg1bench.load;

import static dev.wg1bench.load.CopyText.digits;
import static dev.wg1bench.load.CopyText.put;

import dev.wg1bench.plan.Checks;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.plan.WorkloadKnobs;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Creates and loads the pgbench tables exactly as {@code pgbench -i -s SCALE [-F FILLFACTOR]} of
 * PostgreSQL 14+ does with its default steps "dtgvp": drop, create tables, generate data
 * client-side with COPY ... FREEZE in the transaction that truncated the tables, VACUUM ANALYZE,
 * primary keys. Same columns, types, row counts, filler values (NULL for branches and tellers,
 * blank-padded for accounts), and fillfactor.
 *
 * <p>Unlike pgbench it refuses to drop tables that hold rows unless forced: a benchmark tool must
 * not destroy data by default. It never touches any table but these four.
 */
public final class PgbenchLoader {
  public static final List<String> TABLES =
      List.of("pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers");
  static final int NACCOUNTS = 100_000;
  static final int NTELLERS = 10;

  /** pgbench switches aid to bigint at this scale (naccounts would overflow int4). */
  static final int SCALE_32BIT_THRESHOLD = 20_000;

  private PgbenchLoader() {}

  /** Tables of the family that exist in the connection's search path. */
  public static List<String> existing(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      for (String t : TABLES) {
        try (ResultSet rs = st.executeQuery("SELECT to_regclass('" + t + "') IS NOT NULL")) {
          rs.next();
          if (rs.getBoolean(1)) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }

  /** Fillfactor of pgbench_accounts as created (100 when none was set). */
  public static int fillfactor(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT option_value FROM pg_options_to_table(reloptions)"
                    + " WHERE option_name = 'fillfactor')"
                    + " FROM pg_class WHERE oid = to_regclass('pgbench_accounts')")) {
      return rs.next() && rs.getString(1) != null ? Integer.parseInt(rs.getString(1)) : 100;
    }
  }

  /**
   * Scale as pgbench detects it: the row count of pgbench_branches; null if the table is missing.
   */
  public static Integer detectScale(Connection c) throws SQLException {
    if (!existing(c).contains("pgbench_branches")) {
      return null;
    }
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM pgbench_branches")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /**
   * Creates and loads the tables. Throws {@link UsageException} before changing anything when a
   * table holds rows and {@code force} is off.
   */
  public static void init(Connection c, int scale, int fillfactor, boolean force, PrintStream log)
      throws SQLException {
    Checks.range("--scale", scale, 1, WorkloadKnobs.MAX_SCALE);
    Checks.range("--fillfactor", fillfactor, 10, 100);
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(true);
    String step = "checking the existing tables";
    boolean ours = false;
    try (Statement st = c.createStatement()) {
      if (!force) {
        refuseRows(c, st);
      }
      long t0 = System.nanoTime();
      // per-step seconds, printed as pgbench -i prints them, so the two compare step by step
      StepTimer steps = new StepTimer();
      String aidType = scale >= SCALE_32BIT_THRESHOLD ? "bigint" : "int";
      say(log, "dropping old tables...");
      step = "dropping old tables";
      st.execute("DROP TABLE IF EXISTS " + String.join(", ", TABLES));
      steps.done("drop tables");
      // from here on the four tables are ours: a failure removes them rather than leave them
      ours = true;
      say(log, "creating tables...");
      step = "creating tables";
      create(st, aidType, fillfactor);
      steps.done("create tables");
      say(log, "generating data (client-side)...");
      step = "generating data (client-side)";
      generate(c, st, scale, log);
      steps.done("client-side generate");
      say(log, "vacuuming...");
      step = "vacuuming";
      vacuum(st);
      steps.done("vacuum");
      say(log, "creating primary keys...");
      step = "creating primary keys";
      addPrimaryKeys(st);
      steps.done("primary keys");
      say(
          log,
          String.format(
              Locale.ROOT,
              "done in %.2f s (%s; scale %d, fillfactor %d).",
              (System.nanoTime() - t0) / 1e9,
              steps,
              scale,
              fillfactor));
    } catch (SQLException e) {
      String first =
          e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
      throw new RunFailure(
          "init failed while " + step + ": " + first + (ours ? removeTables(c) : ""), e);
    } finally {
      try {
        c.setAutoCommit(autoCommit);
      } catch (SQLException e) {
        // the connection is gone; the message above says what state the tables are in
      }
    }
  }

  /** pgbench -i's vacuum step: fresh statistics and visibility map before the first run. */
  private static void vacuum(Statement st) throws SQLException {
    for (String t :
        List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history")) {
      st.execute("VACUUM ANALYZE " + t);
    }
  }

  /** Keys after the load, as pgbench -i adds them: building them once is cheaper than per row. */
  private static void addPrimaryKeys(Statement st) throws SQLException {
    st.execute("ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)");
    st.execute("ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)");
    st.execute("ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)");
  }

  /** A pgbench table that holds rows is refused: init replaces only with --force. */
  private static void refuseRows(Connection c, Statement st) throws SQLException {
    for (String t : existing(c)) {
      try (ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM " + t + ")")) {
        rs.next();
        if (rs.getBoolean(1)) {
          throw new UsageException(
              "init: table "
                  + t
                  + " already holds rows; add --force to drop and re-create the four pgbench"
                  + " tables (no other table is touched)");
        }
      }
    }
  }

  /** The four tables as pgbench -i creates them. */
  private static void create(Statement st, String aidType, int fillfactor) throws SQLException {
    String ff = fillfactor == 100 ? "" : " WITH (fillfactor=" + fillfactor + ")";
    st.execute(
        "CREATE TABLE pgbench_history(tid int, bid int, aid "
            + aidType
            + ", delta int, mtime timestamp, filler char(22))");
    st.execute(
        "CREATE TABLE pgbench_tellers(tid int not null, bid int, tbalance int, filler char(84))"
            + ff);
    st.execute(
        "CREATE TABLE pgbench_accounts(aid "
            + aidType
            + " not null, bid int, abalance int, filler char(84))"
            + ff);
    st.execute(
        "CREATE TABLE pgbench_branches(bid int not null, bbalance int, filler char(88))" + ff);
  }

  /** The rows, generated client-side into COPY in one transaction, as pgbench -i -I g. */
  private static void generate(Connection c, Statement st, int scale, PrintStream log)
      throws SQLException {
    c.setAutoCommit(false);
    // FREEZE needs the table truncated in the loading transaction, as pgbench does on 14+.
    st.execute("TRUNCATE TABLE " + String.join(", ", TABLES));
    boolean freeze = c.getMetaData().getDatabaseMajorVersion() >= 14;
    copy(c, "pgbench_branches", scale, freeze, null, Rows.BRANCH);
    copy(c, "pgbench_tellers", (long) scale * NTELLERS, freeze, null, Rows.TELLER);
    copy(c, "pgbench_accounts", (long) scale * NACCOUNTS, freeze, log, Rows.ACCOUNT);
    c.commit();
    c.setAutoCommit(true);
  }

  /**
   * After a failed init: rolls back the load and drops the four tables, so nothing half-built is
   * left (no tables, or tables without keys, that a later run would take for a loaded database).
   * Says what state the database is in either way.
   */
  private static String removeTables(Connection c) {
    try {
      if (!c.getAutoCommit()) {
        c.rollback();
        c.setAutoCommit(true);
      }
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS " + String.join(", ", TABLES));
      }
      return "; the pgbench tables were removed, nothing half-built is left: re-run init";
    } catch (SQLException e) {
      return "; the pgbench tables may be left half-built (removing them failed too: "
          + e.getMessage().lines().findFirst().orElse("")
          + "): re-run init with --force";
    }
  }

  /** Seconds per init step, in order. */
  private static final class StepTimer {
    private final StringBuilder text = new StringBuilder();
    private long last = System.nanoTime();

    void done(String step) {
      long now = System.nanoTime();
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(String.format(Locale.ROOT, "%s %.2f s", step, (now - last) / 1e9));
      last = now;
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }

  private static void say(PrintStream log, String s) {
    if (log != null) {
      log.println(s);
    }
  }

  /** One COPY text row per number, written into a buffer without allocating per row. */
  private enum Rows {
    // "filler" NULL for branches and tellers, the empty (blank-padded) string for accounts.
    BRANCH(0, NULL_TAIL),
    TELLER(NTELLERS, NULL_TAIL),
    ACCOUNT(NACCOUNTS, EMPTY_TAIL);

    /** Rows per branch, whose bid follows the id; 0 for the branches themselves. */
    private final long perBranch;

    private final byte[] tail;

    Rows(long perBranch, byte[] tail) {
      this.perBranch = perBranch;
      this.tail = tail;
    }

    int write(byte[] b, int p, long i) {
      p = digits(b, p, i + 1);
      if (perBranch > 0) {
        b[p++] = '\t';
        p = digits(b, p, i / perBranch + 1);
      }
      return put(b, p, tail);
    }
  }

  private static void copy(
      Connection c, String table, long rows, boolean freeze, PrintStream log, Rows gen)
      throws SQLException {
    String sql = "COPY " + table + " FROM STDIN" + (freeze ? " WITH (FREEZE ON)" : "");
    CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
    byte[] buf = new byte[1 << 16];
    int p = 0;
    long step = Math.max(rows / 100, 1);
    try (Progress progress = log == null ? null : Progress.start("loading " + table, rows, log)) {
      for (long i = 0; i < rows; i++) {
        if (p > buf.length - 64) {
          in.writeToCopy(buf, 0, p);
          p = 0;
        }
        p = gen.write(buf, p, i);
        if (progress != null && (i + 1) % step == 0) {
          progress.stepBy(step);
        }
      }
      if (p > 0) {
        in.writeToCopy(buf, 0, p);
      }
      in.endCopy();
    } finally {
      if (in.isActive()) {
        in.cancelCopy();
      }
    }
  }

  private static final byte[] NULL_TAIL = "\t0\t\\N\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EMPTY_TAIL = "\t0\t\n".getBytes(StandardCharsets.US_ASCII);
}
