package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.LimitedRole;
import dev.wg1bench.support.TestServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What a JUnit gate on {@link Wg1bench#compare} must stop: a treatment that fails every op, one
 * that fails a small share of them, one that cannot run, one whose server cannot be reached, all
 * {@link Comparison.Verdict#BROKEN} with the arm, the counts and the first error, never a verdict
 * on speed; and each arm runs on the target it was given.
 */
class ComparisonFailuresTest {
  /** SELECT 1, or a missing table when {@code table} is set. */
  public static class Select implements JdbcWorkload {
    @Override
    public void op(Op op) throws Exception {
      String table = op.param("table");
      try (var st = op.connection().createStatement()) {
        st.execute(table == null ? "SELECT 1" : "SELECT * FROM " + table);
      }
    }
  }

  /** SELECT 1, but every 50th op of a client divides by zero (SQLSTATE 22012). */
  public static class OneIn50 implements JdbcWorkload {
    private long n;

    @Override
    public void op(Op op) throws Exception {
      try (var st = op.connection().createStatement()) {
        st.execute(++n % 50 == 0 ? "SELECT 1/0" : "SELECT 1");
      }
    }
  }

  /** A set-up that throws. */
  public static class NoSetUp extends Select {
    @Override
    public void setUp(DataSource ds) {
      throw new IllegalStateException("the fixture is missing");
    }
  }

  private static Wg1bench shaped(Wg1bench w) {
    return w.clients(2)
        .warmup(Duration.ofMillis(200))
        .duration(Duration.ofMillis(500))
        .iterations(1);
  }

  private static Wg1bench arm(Wg1bench w) {
    var t = TestServer.target();
    return shaped(w)
        .against(t.jdbcUrl(), t.user(), t.password() == null ? null : t.password().reveal());
  }

  @Test
  void aTreatmentThatFailsEveryOpIsBrokenAndTheGateFails() {
    Comparison c =
        Wg1bench.compare(
                arm(Wg1bench.workload(Select.class)),
                arm(Wg1bench.workload(Select.class).param("table", "renamed_away_41")))
            .blocks(3)
            .run();
    assertEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
    assertEquals(Comparison.Arm.TREATMENT, c.broken());
    assertTrue(c.firstError().startsWith("42P01: "), c.firstError());
    assertTrue(c.firstError().contains("renamed_away_41"), c.firstError());
    assertFalse(c.table().contains("NaN") || c.table().contains("Infinity"), c.table());
    assertTrue(c.table().contains("the treatment failed"), c.table());
    AssertionError gate = assertThrows(AssertionError.class, () -> Verdicts.assertNotSlower(c));
    assertTrue(gate.getMessage().contains("treatment is broken"), gate.getMessage());
    assertTrue(gate.getMessage().contains("treatment failed/all"), gate.getMessage());
    assertThrows(AssertionError.class, () -> Verdicts.assertEquivalent(c));
    assertThrows(AssertionError.class, () -> Verdicts.assertFaster(c));
  }

  @Test
  void oneFailedOpIn50IsBrokenUnlessAllowed() {
    Comparison strict =
        Wg1bench.compare(
                arm(Wg1bench.workload(Select.class)), arm(Wg1bench.workload(OneIn50.class)))
            .blocks(2)
            .run();
    assertEquals(Comparison.Verdict.BROKEN, strict.verdict(), strict.table());
    assertEquals(Comparison.Arm.TREATMENT, strict.broken());
    assertTrue(strict.firstError().startsWith("22012: "), strict.firstError());
    assertThrows(AssertionError.class, () -> Verdicts.assertNotSlower(strict));

    // 1 in 50 is 2%: allowed at 5%, the comparison judges speed again
    Comparison allowed =
        Wg1bench.compare(
                arm(Wg1bench.workload(Select.class)), arm(Wg1bench.workload(OneIn50.class)))
            .blocks(2)
            .allowedFailureRate(0.05)
            .run();
    assertNotEquals(Comparison.Verdict.BROKEN, allowed.verdict(), allowed.table());
    assertTrue(allowed.table().contains("allowed failures 5%"), allowed.table());
  }

  @Test
  void aTreatmentThatCannotRunIsBrokenNamingIt() {
    Comparison c =
        Wg1bench.compare(
                arm(Wg1bench.workload(Select.class)), arm(Wg1bench.workload(NoSetUp.class)))
            .blocks(2)
            .run();
    assertEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
    assertEquals(Comparison.Arm.TREATMENT, c.broken(), c.table());
    assertTrue(c.table().contains("the treatment could not run"), c.table());
    assertTrue(c.table().contains("the fixture is missing"), c.table());
  }

  @Test
  void aTreatmentWhoseServerCannotBeReachedIsBrokenInOneLine() {
    Comparison c =
        Wg1bench.compare(
                arm(Wg1bench.workload(Select.class)),
                shaped(Wg1bench.workload(Select.class))
                    .against("jdbc:postgresql://127.0.0.1:1/nowhere", "nobody", null))
            .blocks(2)
            .run();
    assertEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
    assertEquals(Comparison.Arm.TREATMENT, c.broken(), c.table());
    String first = c.table().lines().findFirst().orElseThrow();
    assertTrue(first.startsWith("broken: the treatment could not run"), first);
  }

  /**
   * A treatment whose clients could not all connect ran another workload than the baseline (fewer
   * clients): broken, naming how many ran and the server's reason, never a verdict on speed.
   */
  @Test
  void aTreatmentWhoseClientsCouldNotAllConnectIsBroken() throws SQLException {
    try (LimitedRole role = new LimitedRole("wg1_cmp_limited", 1)) {
      // the baseline's URL: the treatment still runs as its own user (see ArmTargets)
      String url = TestServer.target().jdbcUrl();
      Comparison c =
          Wg1bench.compare(
                  arm(Wg1bench.workload(Select.class)),
                  shaped(Wg1bench.workload(Select.class)).against(url, role.name(), null))
              .blocks(2)
              .run();
      assertEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
      assertEquals(Comparison.Arm.TREATMENT, c.broken(), c.table());
      // one of two at the role's limit; a backend of the tool's own closed probe still counts
      // against the limit until its process has exited, so on a busy machine both can meet it
      // (the server's accounting, not the tool's): either way broken, saying how many ran
      assertTrue(
          c.table().contains("the treatment did not run as asked in block ")
              && (c.table().contains(": 1 of 2 clients ran; 1 client could not start")
                  || c.table().contains(": 0 of 2 clients ran; 2 clients could not start")),
          c.table());
      assertTrue(c.firstError().startsWith("53300: "), c.firstError());
      assertThrows(AssertionError.class, () -> Verdicts.assertNotSlower(c));
    }
  }

  /** Notes the role each op ran as, under its arm's name (param {@code arm}). */
  public static class WhoAmI implements JdbcWorkload {
    static final java.util.Map<String, java.util.Set<String>> SEEN =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void op(Op op) throws Exception {
      try (var st = op.connection().createStatement();
          var rs = st.executeQuery("SELECT current_user")) {
        rs.next();
        SEEN.computeIfAbsent(
                op.param("arm"), a -> java.util.concurrent.ConcurrentHashMap.newKeySet())
            .add(rs.getString(1));
      }
    }
  }

  /**
   * Two arms on one URL as two users are two targets: each arm's ops run as its own user (they ran
   * as the first arm's when targets were one per name), and the result names each arm's user.
   */
  @Test
  void armsOnOneUrlAsTwoUsersEachRunAsTheirOwn() throws SQLException {
    try (LimitedRole u1 = new LimitedRole("wg1_cmp_u1", 20);
        LimitedRole u2 = new LimitedRole("wg1_cmp_u2", 20)) {
      WhoAmI.SEEN.clear();
      String url = TestServer.target().jdbcUrl();
      Comparison c =
          Wg1bench.compare(
                  shaped(Wg1bench.workload(WhoAmI.class).param("arm", "baseline"))
                      .against(url, u1.name(), null),
                  shaped(Wg1bench.workload(WhoAmI.class).param("arm", "treatment"))
                      .against(url, u2.name(), null))
              .blocks(2)
              .run();
      assertNotEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
      assertEquals(java.util.Set.of(u1.name()), WhoAmI.SEEN.get("baseline"), "baseline's user");
      assertEquals(java.util.Set.of(u2.name()), WhoAmI.SEEN.get("treatment"), "treatment's user");
      // the result says who each arm ran as, and never a password
      assertTrue(c.json().contains("as " + u1.name()), c.json());
      assertTrue(c.json().contains("as " + u2.name()), c.json());
    }
  }

  /** Counts the connections it hands out. */
  private static DataSource counting(AtomicLong n) {
    DataSource pool = TestServer.applicationPool(4);
    return (DataSource)
        java.lang.reflect.Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, m, args) -> {
              if (m.getName().equals("getConnection")) {
                n.incrementAndGet();
              }
              try {
                return m.invoke(pool, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void eachArmRunsOnItsOwnDataSource() throws SQLException {
    AtomicLong a = new AtomicLong();
    AtomicLong b = new AtomicLong();
    Wg1bench w = shaped(Wg1bench.workload(Select.class));
    Comparison c = Wg1bench.compare(w.against(counting(a)), w.against(counting(b))).blocks(2).run();
    assertNotEquals(Comparison.Verdict.BROKEN, c.verdict(), c.table());
    assertTrue(a.get() > 0, "the baseline's DataSource was used");
    assertTrue(b.get() > 0, "the treatment's DataSource was used, not the baseline's");
    try (Connection ignored = TestServer.connect()) {
      // the description is unchanged by against(): it has no target of its own
      assertThrows(InvalidSettingException.class, () -> Wg1bench.compare(w, w).blocks(2).run());
    }
  }

  @Test
  void aDescriptionRunsAnyNumberOfTimes() {
    Wg1bench w = arm(Wg1bench.workload("select one", Select::new));
    Wg1bench.Result first = w.run();
    Wg1bench.Result second = w.run();
    assertEquals(0, first.failedOps());
    assertEquals(0, second.failedOps());
    assertTrue(second.committedOps() > 0);
  }
}
