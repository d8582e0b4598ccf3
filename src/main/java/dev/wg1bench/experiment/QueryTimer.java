package dev.wg1bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wg1bench.json.Json;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Times a query with EXPLAIN ANALYZE after one untimed warm run, and says which plan it used. */
public final class QueryTimer {
  private QueryTimer() {}

  /**
   * @param tablePrefix name (or name prefix) of the table the query reads; its scan nodes tell
   *     whether an index was used
   */
  public static QueryResult time(Connection c, String sql, String tablePrefix, int repeat)
      throws SQLException {
    explain(c, sql); // warm: caches, hint bits
    List<Double> exec = new ArrayList<>();
    List<Double> wall = new ArrayList<>();
    JsonNode last = null;
    for (int i = 0; i < repeat; i++) {
      long t0 = System.nanoTime();
      last = explain(c, sql);
      wall.add(Timings.msSince(t0));
      exec.add(last.path("Execution Time").asDouble());
    }
    JsonNode plan = last.path("Plan");
    List<JsonNode> scans = new ArrayList<>();
    Set<String> nodes = new LinkedHashSet<>();
    walk(plan, tablePrefix, scans, nodes);
    Set<String> kinds = new LinkedHashSet<>();
    String index = null;
    for (JsonNode s : scans) {
      kinds.add(kind(s.path("Node Type").asText()));
      if (index == null && s.hasNonNull("Index Name")) {
        index = s.path("Index Name").asText();
      }
    }
    String scan = kinds.isEmpty() ? "none" : kinds.size() == 1 ? kinds.iterator().next() : "mixed";
    boolean indexUsed = index != null;
    return new QueryResult(
        sql,
        Timings.of(exec),
        Timings.of(wall),
        plan.path("Actual Rows").asLong(),
        scan,
        index,
        indexUsed,
        scans.size(),
        String.join(" > ", nodes),
        plan.path("Shared Hit Blocks").asLong(),
        plan.path("Shared Read Blocks").asLong());
  }

  static JsonNode explain(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) " + sql)) {
      rs.next();
      return Json.MAPPER.readTree(rs.getString(1)).get(0);
    } catch (IOException e) {
      throw new SQLException("cannot parse EXPLAIN output: " + e.getMessage(), e);
    }
  }

  /**
   * Collects the scan nodes on the table (a Bitmap Heap Scan is represented by its Bitmap Index
   * Scan child, which names the index) and the node types top down.
   */
  private static void walk(JsonNode n, String table, List<JsonNode> scans, Set<String> nodes) {
    String type = n.path("Node Type").asText();
    nodes.add(type);
    String rel = n.path("Relation Name").asText("");
    if (rel.startsWith(table)) {
      if (type.equals("Bitmap Heap Scan")) {
        JsonNode idx = firstBitmapIndexScan(n);
        scans.add(idx != null ? idx : n);
      } else {
        scans.add(n);
      }
    }
    for (JsonNode child : n.path("Plans")) {
      walk(child, table, scans, nodes);
    }
  }

  private static JsonNode firstBitmapIndexScan(JsonNode n) {
    for (JsonNode child : n.path("Plans")) {
      if (child.path("Node Type").asText().equals("Bitmap Index Scan")) {
        return child;
      }
      JsonNode deeper = firstBitmapIndexScan(child);
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }

  private static String kind(String nodeType) {
    return switch (nodeType) {
      case "Index Scan" -> "index";
      case "Index Only Scan" -> "index-only";
      case "Bitmap Index Scan", "Bitmap Heap Scan" -> "bitmap";
      case "Seq Scan" -> "seq";
      default -> nodeType;
    };
  }
}
