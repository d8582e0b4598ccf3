package dev.wg1bench.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The knob declarations: sweep values, labels, checks and where values land in a plan. */
class KnobsTest {
  private static PlanDraft draft() {
    return new PlanDraft()
        .workload("custom", List.of(new ScriptSource("a.sql", "SELECT 1;", 1)))
        .targets(
            List.of(
                new TargetSpec(
                    "t",
                    new TargetSpec.Kind("EXTERNAL"),
                    "jdbc:postgresql://h/d",
                    null,
                    null,
                    null)))
        .timing(java.time.Duration.ZERO, java.time.Duration.ofSeconds(1), 1, 0, null)
        .output(Path.of("r.json"));
  }

  @Test
  void everyKnobHasOneOptionAndOneKey() {
    Set<String> options = new HashSet<>();
    Set<String> keys = new HashSet<>();
    for (Knob<?> k : Knobs.ALL) {
      assertTrue(options.add(k.option()), "option declared twice: " + k.option());
      assertTrue(keys.add(k.key()), "key declared twice: " + k.key());
      assertTrue(k.option().startsWith("--"), k.option());
      assertTrue(!k.help().isEmpty(), "help of " + k.option());
    }
  }

  @Test
  void listSweepsItsDistinctValuesAndFallsBackToItsDefault() {
    assertEquals(List.of(1, 4), Knobs.CLIENTS.points(List.of(1, 4, 1)));
    assertEquals(List.of(4), Knobs.CLIENTS.points(null));
    assertEquals(List.of(QueryMode.SIMPLE), Knobs.QUERY_MODE.points(List.of()));
    assertEquals(java.util.Arrays.asList((Integer) null), Knobs.FETCH_SIZE.points(null));
  }

  @Test
  void mapSweepsEveryCombinationAndKeepsEscapedCommas() {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("a", "1,2");
    given.put("b", "x\\,y");
    assertEquals(
        List.of(Map.of("a", "1", "b", "x,y"), Map.of("a", "2", "b", "x,y")),
        Knobs.SET.points(given));
    // --jdbc-property sweeps as --set does, an escaped comma kept in its value
    Map<String, String> props = new LinkedHashMap<>();
    props.put("socketTimeout", "10,20");
    props.put("options", "-c search_path=app\\,public");
    assertEquals(
        List.of(
            Map.of("socketTimeout", "10", "options", "-c search_path=app,public"),
            Map.of("socketTimeout", "20", "options", "-c search_path=app,public")),
        Knobs.JDBC_PROPERTY.points(props));
  }

  /**
   * The pgjdbc knobs declared once survive the plan's JSON (a fork reads it back), and driver
   * settings written before they moved onto that route (fields of their own) keep their effect.
   */
  @Test
  void declaredPgjdbcKnobsSurviveTheJsonAndOlderPlansReadTheSame() throws Exception {
    RunPlan p =
        draft()
            .set(Knobs.FETCH_SIZE, 50)
            .set(Knobs.BINARY_TRANSFER, false)
            .set(Knobs.REWRITE_BATCHED_INSERTS, true)
            .build();
    var mapper = dev.wg1bench.json.Json.MAPPER;
    DriverKnobs back = mapper.readValue(mapper.writeValueAsString(p.driver()), DriverKnobs.class);
    Map<String, String> want =
        Map.of(
            "defaultRowFetchSize",
            "50",
            "binaryTransfer",
            "false",
            "reWriteBatchedInserts",
            "true");
    assertEquals(want, back.pgjdbc());
    assertEquals(p.driver(), back);
    DriverKnobs older =
        mapper.readValue(
            "{\"sslmode\":null,\"prepareThreshold\":null,\"binaryTransfer\":false,"
                + "\"fetchSize\":50,\"rewriteBatchedInserts\":true,\"properties\":{}}",
            DriverKnobs.class);
    assertEquals(want, older.pgjdbc());
    assertEquals(50, older.fetchSize());
    assertEquals(Boolean.FALSE, older.binaryTransfer());
    assertTrue(older.rewriteBatchedInserts());
    // a flag that is off is stored as nothing, as it was never given
    RunPlan off = draft().set(Knobs.REWRITE_BATCHED_INSERTS, false).build();
    assertEquals(Map.of(), off.driver().pgjdbc());
    assertEquals(null, Knobs.REWRITE_BATCHED_INSERTS.get(off));
  }

  @Test
  void valuesLandInThePlanAndLabelIt() {
    RunPlan p =
        draft()
            .set(Knobs.CLIENTS, 3)
            .set(Knobs.QUERY_MODE, QueryMode.PREPARED)
            .set(Knobs.FETCH_SIZE, 50)
            .set(Knobs.SET, Map.of("work_mem", "8MB"))
            .set(Knobs.REWRITE_BATCHED_INSERTS, true)
            .build();
    assertEquals(3, p.clients());
    assertEquals(50, p.driver().fetchSize());
    assertEquals("8MB", p.session().settings().get("work_mem"));
    Map<String, String> labels = new LinkedHashMap<>();
    for (Knob<?> k : Knobs.ALL) {
      labels.putAll(k.labels(p));
    }
    assertEquals("3", labels.get("clients"));
    assertEquals("prepared", labels.get("queryMode"));
    assertEquals("default", labels.get("isolation"));
    assertEquals("50", labels.get("fetchSize"));
    assertEquals("8MB", labels.get("set.work_mem"));
    assertEquals("true", labels.get("rewriteBatchedInserts"));
    assertTrue(!labels.containsKey("poolSize"), labels.toString());
  }

  @Test
  void checksNameTheOptionAndTheValue() {
    assertEquals(
        "--clients must be between 1 and 10000, got 0",
        assertThrows(UsageException.class, () -> draft().set(Knobs.CLIENTS, 0).build())
            .getMessage());
    assertEquals(
        "--pool-size must be between 1 and 2, got 3",
        assertThrows(
                UsageException.class,
                () -> draft().set(Knobs.CLIENTS, 2).set(Knobs.POOL_SIZE, 3).build())
            .getMessage());
    assertEquals(
        "--prepare-threshold has no effect with --query-mode simple; use extended or prepared",
        assertThrows(UsageException.class, () -> draft().set(Knobs.PREPARE_THRESHOLD, 5).build())
            .getMessage());
    assertEquals(
        "--sslmode 'maybe' is not one of disable, allow, prefer, require, verify-ca, verify-full",
        assertThrows(UsageException.class, () -> draft().set(Knobs.SSLMODE, "maybe").build())
            .getMessage());
  }

  @Test
  void aDraftCopyIsIndependent() {
    PlanDraft a = draft().set(Knobs.SET, Map.of("x", "1"));
    PlanDraft b = a.copy().set(Knobs.SET, Map.of("x", "2"));
    assertEquals("1", a.build().session().settings().get("x"));
    assertEquals("2", b.build().session().settings().get("x"));
  }
}
