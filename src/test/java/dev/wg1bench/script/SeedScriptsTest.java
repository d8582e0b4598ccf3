package dev.wg1bench.script;

import static dev.wg1bench.script.ScriptTestSupport.PREDEFINED;
import static dev.wg1bench.script.ScriptTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The seed scripts of the PGECons WG1 reports (yen signs already turned into backslashes). */
class SeedScriptsTest {
  static final String UPDATE_FILLER =
      "UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid";

  static String write(boolean transaction) {
    StringBuilder sb = new StringBuilder("\\set naccounts 100000 * :scale\n");
    for (int i = 0; i < 10; i++) {
      sb.append(String.format("\\setrandom aid%02d 1 :naccounts%n", i));
    }
    if (transaction) {
      sb.append("BEGIN;\n");
    }
    for (int i = 0; i < 10; i++) {
      sb.append(String.format("%s%02d;%n", UPDATE_FILLER, i));
    }
    if (transaction) {
      sb.append("END;\n");
    }
    return sb.toString();
  }

  static final String READ =
      "\\set naccounts 100000 * :scale\n"
          + "\\set row_count 10000\n"
          + "\\set aid_max :naccounts - :row_count\n"
          + "\\setrandom aid 1 :aid_max\n"
          + "\n"
          + "SELECT count(abalance) FROM pgbench_accounts WHERE aid BETWEEN :aid and :aid +"
          + " :row_count;\n";

  static final String UPDATE =
      "\\set naccounts 100000 * :scale\n"
          + "\\set aid_val random(1, :naccounts)\n"
          + "UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2)"
          + " WHERE aid = :aid_val;\n";

  static final String INSERT_HEADER =
      "\\set nbranches 1 * :scale\n"
          + "\\set ntellers 10 * :scale\n"
          + "\\set naccounts 100000 * :scale\n"
          + "\\set aid random(1,:naccounts)\n"
          + "\\set bid random(1,:nbranches)\n"
          + "\\set tid random(1,:ntellers)\n"
          + "\\set delta random(-5000,5000)\n";

  static String insert8() {
    StringBuilder sb = new StringBuilder(INSERT_HEADER).append("BEGIN;\n");
    for (int i = 0; i < 8; i++) {
      sb.append("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid,")
          .append(" :aid, :delta")
          .append(i == 0 ? "" : "+" + i)
          .append(", CURRENT_TIMESTAMP);\n");
    }
    return sb.append("END;\n").toString();
  }

  static String insertMultiRow() {
    StringBuilder sb =
        new StringBuilder(INSERT_HEADER)
            .append("BEGIN;\n")
            .append(
                "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid,"
                    + " :aid, :delta, CURRENT_TIMESTAMP),\n");
    for (int i = 1; i < 8; i++) {
      sb.append("(:tid, :bid, :aid, :delta+")
          .append(i)
          .append(", CURRENT_TIMESTAMP)")
          .append(i == 7 ? ";" : ",")
          .append('\n');
    }
    return sb.append("END;\n").toString();
  }

  static String rrWrite10() {
    StringBuilder sb =
        new StringBuilder(
            "\\set naccounts 100000 * :scale\n"
                + "\\set caccounts :naccounts / :num_clients\n"
                + "\\set mydiff :ccounts - :client_id\n");
    for (int i = 0; i < 10; i++) {
      sb.append(String.format("\\setrandom aid%02d 1 :ccounts%n", i));
      sb.append(String.format("\\set aid%02d :num_clients * :aid%02d%n", i, i));
      if (i != 7) {
        sb.append(String.format("\\set aid%02d :aid%02d - :mydiff%n", i, i));
      }
    }
    sb.append("BEGIN;\n");
    for (int i = 0; i < 10; i++) {
      sb.append(String.format("%s%02d;%n", UPDATE_FILLER, i));
    }
    return sb.append("END;\n").toString();
  }

  private static EvalContext context(CompiledScript cs, long seed) {
    return new EvalContext(ScriptTestSupport.initialSlots(cs), new PgbenchRandom(seed), 42L);
  }

  private static void checkAids(CompiledScript cs, List<String> names, long lo, long hi) {
    EvalContext ctx = context(cs, 11);
    Set<Long> seenEnds = new HashSet<>();
    for (int i = 0; i < 20000; i++) {
      ScriptTestSupport.runSets(cs, ctx);
      for (String n : names) {
        long v = (Long) ctx.slots()[cs.slotOf(n)];
        assertTrue(v >= lo && v <= hi, n + "=" + v);
        if (v < lo + 50 || v > hi - 50) {
          seenEnds.add(v < lo + 50 ? lo : hi);
        }
      }
    }
    // values near both ends occur: the range is really [lo, hi], not a sub-range
    assertEquals(Set.of(lo, hi), seenEnds);
  }

  @Test
  void write1AndWrite10() throws Exception {
    List<String> aids =
        List.of(
            "aid00", "aid01", "aid02", "aid03", "aid04", "aid05", "aid06", "aid07", "aid08",
            "aid09");
    CompiledScript w1 = compile("write1.sql", write(false));
    assertEquals(21, w1.steps().size());
    SqlStep first = assertInstanceOf(SqlStep.class, w1.steps().get(11));
    assertEquals(
        "UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= ?",
        first.jdbcSql());
    assertArrayEquals(new int[] {w1.slotOf("aid00")}, first.paramSlots());
    assertEquals(12, first.line());
    checkAids(w1, aids, 1, 100000);

    CompiledScript w10 = compile("write10.sql", write(true));
    assertEquals(23, w10.steps().size());
    assertEquals(TxControl.BEGIN, ((SqlStep) w10.steps().get(11)).tx());
    assertEquals(TxControl.COMMIT, ((SqlStep) w10.steps().get(22)).tx());
    checkAids(w10, aids, 1, 100000);
  }

  @Test
  void readTest() throws Exception {
    CompiledScript cs = compile("read.sql", READ);
    assertEquals(5, cs.steps().size());
    SqlStep sel = assertInstanceOf(SqlStep.class, cs.steps().get(4));
    assertEquals(6, sel.line());
    assertEquals(
        "SELECT count(abalance) FROM pgbench_accounts WHERE aid BETWEEN ? and ? + ?",
        sel.jdbcSql());
    int aid = cs.slotOf("aid");
    assertArrayEquals(new int[] {aid, aid, cs.slotOf("row_count")}, sel.paramSlots());
    checkAids(cs, List.of("aid"), 1, 90000);
  }

  @Test
  void updateTest() throws Exception {
    CompiledScript cs = compile("update.sql", UPDATE);
    assertEquals(3, cs.steps().size());
    checkAids(cs, List.of("aid_val"), 1, 100000);
  }

  @Test
  void insertScripts() throws Exception {
    CompiledScript eight = compile("insert8.sql", insert8());
    assertEquals(7 + 1 + 8 + 1, eight.steps().size());
    SqlStep last = assertInstanceOf(SqlStep.class, eight.steps().get(15));
    assertTrue(last.jdbcSql().endsWith("VALUES (?, ?, ?, ?+7, CURRENT_TIMESTAMP)"));
    assertEquals(16, last.line());

    CompiledScript multi = compile("insert_multi.sql", insertMultiRow());
    assertEquals(7 + 1 + 1 + 1, multi.steps().size());
    SqlStep ins = assertInstanceOf(SqlStep.class, multi.steps().get(8));
    assertEquals(9, ins.line());
    assertEquals(32, ins.paramSlots().length);
    assertTrue(ins.jdbcSql().contains("(?, ?, ?, ?+7, CURRENT_TIMESTAMP)"));
    assertEquals(8, ins.jdbcSql().split("\n").length);
    assertEquals(17, ((SqlStep) multi.steps().get(9)).line());

    EvalContext ctx = context(eight, 5);
    for (int i = 0; i < 5000; i++) {
      ScriptTestSupport.runSets(eight, ctx);
      long aid = (Long) ctx.slots()[eight.slotOf("aid")];
      long tid = (Long) ctx.slots()[eight.slotOf("tid")];
      long delta = (Long) ctx.slots()[eight.slotOf("delta")];
      assertTrue(aid >= 1 && aid <= 100000);
      assertTrue(tid >= 1 && tid <= 10);
      assertEquals(1L, ctx.slots()[eight.slotOf("bid")]);
      assertTrue(delta >= -5000 && delta <= 5000);
    }
  }

  @Test
  void rrWrite10UndefinedVariables() throws Exception {
    Script s = Script.parse("rr_write10.sql", rrWrite10());
    Set<String> withClients = new HashSet<>(PREDEFINED);
    withClients.add("num_clients");
    ScriptException e = assertThrows(ScriptException.class, () -> s.compile(withClients));
    assertEquals("rr_write10.sql:3: undefined variable \"ccounts\"", e.getMessage());
    assertEquals(3, e.line());
    assertEquals("rr_write10.sql", e.source());

    ScriptException e2 = assertThrows(ScriptException.class, () -> s.compile(PREDEFINED));
    assertEquals("rr_write10.sql:2: undefined variable \"num_clients\"", e2.getMessage());
  }
}
