package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** pgbench 15's built-in scripts, as printed in the "Custom Scripts" documentation. */
class BuiltinScriptsTest {
  static final String TPCB =
      "\\set aid random(1, 100000 * :scale)\n"
          + "\\set bid random(1, 1 * :scale)\n"
          + "\\set tid random(1, 10 * :scale)\n"
          + "\\set delta random(-5000, 5000)\n"
          + "BEGIN;\n"
          + "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
          + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
          + "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
          + "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
          + "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)"
          + " VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
          + "END;\n";

  static final String SIMPLE_UPDATE =
      "\\set aid random(1, 100000 * :scale)\n"
          + "\\set bid random(1, 1 * :scale)\n"
          + "\\set tid random(1, 10 * :scale)\n"
          + "\\set delta random(-5000, 5000)\n"
          + "BEGIN;\n"
          + "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
          + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
          + "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)"
          + " VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
          + "END;\n";

  static final String SELECT_ONLY =
      "\\set aid random(1, 100000 * :scale)\n"
          + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

  private static SqlStep sql(Step s) {
    return assertInstanceOf(SqlStep.class, s);
  }

  @Test
  void tpcbLike() throws Exception {
    CompiledScript cs = compile("tpcb-like", TPCB);
    List<Step> steps = cs.steps();
    assertEquals(11, steps.size());
    for (int i = 0; i < 4; i++) {
      assertInstanceOf(SetStep.class, steps.get(i));
      assertEquals(i + 1, steps.get(i).line());
    }
    int aid = cs.slotOf("aid");
    int bid = cs.slotOf("bid");
    int tid = cs.slotOf("tid");
    int delta = cs.slotOf("delta");
    assertEquals(aid, ((SetStep) steps.get(0)).slot());
    assertEquals(delta, ((SetStep) steps.get(3)).slot());

    SqlStep begin = sql(steps.get(4));
    assertEquals(TxControl.BEGIN, begin.tx());
    assertEquals("BEGIN", begin.jdbcSql());
    assertEquals(5, begin.line());

    SqlStep upd = sql(steps.get(5));
    assertEquals(
        "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?", upd.jdbcSql());
    assertEquals(
        "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid", upd.text());
    assertArrayEquals(new int[] {delta, aid}, upd.paramSlots());
    assertEquals(TxControl.NONE, upd.tx());
    assertNull(upd.gsetPrefix());

    SqlStep sel = sql(steps.get(6));
    assertEquals("SELECT abalance FROM pgbench_accounts WHERE aid = ?", sel.jdbcSql());
    assertArrayEquals(new int[] {aid}, sel.paramSlots());
    assertArrayEquals(new int[] {delta, tid}, sql(steps.get(7)).paramSlots());
    assertArrayEquals(new int[] {delta, bid}, sql(steps.get(8)).paramSlots());

    SqlStep ins = sql(steps.get(9));
    assertEquals(
        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)"
            + " VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)",
        ins.jdbcSql());
    assertArrayEquals(new int[] {tid, bid, aid, delta}, ins.paramSlots());
    assertEquals(10, ins.line());

    SqlStep end = sql(steps.get(10));
    assertEquals(TxControl.COMMIT, end.tx());
    assertEquals(11, end.line());

    // the values land in range
    EvalContext ctx =
        new EvalContext(ScriptTestSupport.initialSlots(cs), new PgbenchRandom(3), 42L);
    for (int i = 0; i < 2000; i++) {
      ScriptTestSupport.runSets(cs, ctx);
      long a = (Long) ctx.slots()[aid];
      long t = (Long) ctx.slots()[tid];
      long d = (Long) ctx.slots()[delta];
      assertTrue(a >= 1 && a <= 100000);
      assertEquals(1L, ctx.slots()[bid]);
      assertTrue(t >= 1 && t <= 10);
      assertTrue(d >= -5000 && d <= 5000);
    }
  }

  @Test
  void simpleUpdate() throws Exception {
    CompiledScript cs = compile("simple-update", SIMPLE_UPDATE);
    List<Step> steps = cs.steps();
    assertEquals(9, steps.size());
    assertEquals(TxControl.BEGIN, sql(steps.get(4)).tx());
    assertTrue(sql(steps.get(5)).jdbcSql().startsWith("UPDATE pgbench_accounts"));
    assertTrue(sql(steps.get(6)).jdbcSql().startsWith("SELECT abalance"));
    assertTrue(sql(steps.get(7)).jdbcSql().startsWith("INSERT INTO pgbench_history"));
    assertEquals(4, sql(steps.get(7)).paramSlots().length);
    assertEquals(TxControl.COMMIT, sql(steps.get(8)).tx());
  }

  @Test
  void selectOnly() throws Exception {
    CompiledScript cs = compile("select-only", SELECT_ONLY);
    assertEquals(2, cs.steps().size());
    assertInstanceOf(SetStep.class, cs.steps().get(0));
    SqlStep sel = sql(cs.steps().get(1));
    assertEquals("SELECT abalance FROM pgbench_accounts WHERE aid = ?", sel.jdbcSql());
    assertArrayEquals(new int[] {cs.slotOf("aid")}, sel.paramSlots());
    assertEquals(2, cs.slotCount()); // scale and aid
    assertEquals(-1, cs.slotOf("client_id"));
  }
}
