package dev.wg1bench.workload;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a workload guarantees about the data, verified against the database after a trial ({@code
 * --check}): a snapshot of the pgbench tables before the trial, the same after, and rules over the
 * difference and the trial's counts. Script workloads declare their rules with a header line {@code
 * -- @check balances, no-serialization-failure}; Java workloads build theirs.
 *
 * <p>The rules compare differences, not absolute values, so they hold on tables that earlier runs
 * already changed.
 */
public final class DataCheck {
  /** One guarantee. */
  public enum Rule {
    /**
     * tpcb: every committed op moved one delta through an account, a teller, a branch and a history
     * row, so the four sums change alike and history gains rows-per-op rows per committed op. No
     * lost update can hide from it. Also holds, with zero change, for workloads that touch neither.
     */
    BALANCES("balances"),
    /** history gains exactly committed ops × rows-per-op rows: no op half-inserted or lost. */
    ROWS("rows"),
    /** nothing in the pgbench tables changed. */
    READ_ONLY("read-only"),
    /** rr_write10: clients own disjoint rows, so any serialization failure is a bug. */
    NO_SERIALIZATION_FAILURE("no-serialization-failure");

    private final String label;

    Rule(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    static Rule parse(String s) {
      for (Rule r : values()) {
        if (r.label.equals(s)) {
          return r;
        }
      }
      throw new IllegalArgumentException(
          "@check '"
              + s
              + "' is not a check; valid: "
              + Arrays.stream(values()).map(Rule::label).collect(Collectors.joining(", ")));
    }
  }

  /** A workload that declares no guarantee. */
  public static final DataCheck NONE = new DataCheck(EnumSet.noneOf(Rule.class), 0);

  private final Set<Rule> rules;
  private final int rowsPerOp;

  public DataCheck(Set<Rule> rules, int rowsPerOp) {
    this.rules = rules.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(rules);
    this.rowsPerOp = rowsPerOp;
  }

  /**
   * Rules from a {@code @check} directive: labels separated by commas or blanks.
   *
   * @throws IllegalArgumentException naming the bad label and the valid ones
   */
  public static DataCheck parse(String directive, int rowsPerOp) {
    Set<Rule> rules = EnumSet.noneOf(Rule.class);
    for (String s : directive.split("[,\\s]+")) {
      if (!s.isEmpty()) {
        rules.add(Rule.parse(s.toLowerCase(Locale.ROOT)));
      }
    }
    return new DataCheck(rules, rowsPerOp);
  }

  public Set<Rule> rules() {
    return rules;
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The pgbench tables' row count and sums at one moment. */
  public record Snapshot(
      long historyRows, long historyDelta, long accounts, long tellers, long branches) {}

  /**
   * The trial as the check sees it.
   *
   * @param committedOps ops that committed over the whole trial, warmup included (successful, less
   *     those rolled back by design)
   * @param serializationErrors serialization failures seen, retried ones included
   * @param connectionFailures ops failed on a lost connection (their COMMIT may have reached the
   *     server, which no client can know)
   * @param stoppedBy why the run stopped early, else null (the counts are then incomplete)
   */
  public record Counts(
      long committedOps, long serializationErrors, long connectionFailures, String stoppedBy) {}

  /**
   * What the check found.
   *
   * @param passed every rule held
   * @param details one line per rule that held
   * @param failures one line per rule that did not
   */
  public record Outcome(boolean passed, List<String> details, List<String> failures) {
    /** "check: ok (...)" or "check FAILED: ...", for the console. */
    public String summary() {
      if (passed) {
        return "check: ok (" + String.join("; ", details) + ")";
      }
      return "check FAILED: " + String.join("; ", failures);
    }
  }

  /** Null when no rule needs the tables. */
  public Snapshot snapshot(Connection c) throws SQLException {
    if (rules.equals(EnumSet.of(Rule.NO_SERIALIZATION_FAILURE)) || rules.isEmpty()) {
      return null;
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT count(*) FROM pgbench_history),"
                    + " (SELECT coalesce(sum(delta), 0) FROM pgbench_history),"
                    + " (SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts),"
                    + " (SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers),"
                    + " (SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches)")) {
      rs.next();
      return new Snapshot(
          rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }
  }

  /** Verifies every rule; {@code before} is what {@link #snapshot} returned before the trial. */
  public Outcome verify(Connection c, Snapshot before, Counts n) throws SQLException {
    List<String> ok = new ArrayList<>();
    List<String> bad = new ArrayList<>();
    if (rules.isEmpty()) {
      return new Outcome(true, List.of("the workload declares no guarantee to check"), List.of());
    }
    if (n.stoppedBy() != null) {
      return new Outcome(
          false,
          List.of(),
          List.of("not verifiable: the run stopped early, so its op counts are incomplete"));
    }
    Snapshot after = snapshot(c);
    String caveat = lostConnectionCaveat(n);
    if (rules.contains(Rule.BALANCES)) {
      balances(before, after, n, caveat, ok, bad);
    }
    if (rules.contains(Rule.BALANCES) || rules.contains(Rule.ROWS)) {
      historyRows(before, after, n, caveat, ok, bad);
    }
    if (rules.contains(Rule.READ_ONLY)) {
      if (after.equals(before)) {
        ok.add("read-only: pgbench tables unchanged");
      } else {
        bad.add("read-only: the pgbench tables changed, before " + before + ", after " + after);
      }
    }
    if (rules.contains(Rule.NO_SERIALIZATION_FAILURE)) {
      if (n.serializationErrors() == 0) {
        ok.add("no serialization failure");
      } else {
        bad.add(
            n.serializationErrors()
                + " serialization failures, where the workload guarantees none");
      }
    }
    return new Outcome(bad.isEmpty(), ok, bad);
  }

  /**
   * Said with a failed rule when ops failed on a lost connection: such an op may have committed
   * though counted failed, so a difference may be that and not a bug.
   */
  private static String lostConnectionCaveat(Counts n) {
    return n.connectionFailures() > 0
        ? " ("
            + n.connectionFailures()
            + " ops failed on a lost connection; one whose COMMIT reached the server is"
            + " counted failed but did commit)"
        : "";
  }

  /** {@link Rule#BALANCES}: the four sums changed by the same amount. */
  private static void balances(
      Snapshot before, Snapshot after, Counts n, String caveat, List<String> ok, List<String> bad) {
    long h = after.historyDelta() - before.historyDelta();
    long a = after.accounts() - before.accounts();
    long t = after.tellers() - before.tellers();
    long b = after.branches() - before.branches();
    if (a == h && t == h && b == h) {
      ok.add(
          String.format(
              Locale.ROOT,
              "balances: accounts = tellers = branches = history deltas = %+d over %d committed ops",
              h,
              n.committedOps()));
    } else {
      bad.add(
          String.format(
              Locale.ROOT,
              "balances: changes differ, accounts %+d, tellers %+d, branches %+d, history deltas"
                  + " %+d (an update was lost or a transaction half-applied)%s",
              a,
              t,
              b,
              h,
              caveat));
    }
  }

  /** {@link Rule#ROWS} (and part of BALANCES): history grew by committed ops x rows per op. */
  private void historyRows(
      Snapshot before, Snapshot after, Counts n, String caveat, List<String> ok, List<String> bad) {
    long rows = after.historyRows() - before.historyRows();
    long expected = n.committedOps() * rowsPerOp;
    String what =
        String.format(
            Locale.ROOT,
            "history rows %+d, committed ops %d x %d rows per op = %d",
            rows,
            n.committedOps(),
            rowsPerOp,
            expected);
    if (rows == expected) {
      ok.add(what);
    } else {
      bad.add(what + caveat);
    }
  }
}
