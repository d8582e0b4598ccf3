package dev.wg1bench.ssb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the 13 SSB queries (2020 §6.2.2), read from the workload script that ships it ({@code
 * workloads/ssb/qN.M.sql}), so the workloads, {@code ssb verify} and {@code ssb queries} run the
 * same text.
 *
 * @param name e.g. "q1.1"
 * @param sql the statement, without header comments or the final semicolon
 * @param orderBy the ORDER BY items (column label and direction), empty for the one-row queries
 */
public record SsbQuery(String name, String sql, List<OrderKey> orderBy) {

  /** The 13 queries in the order of the benchmark. */
  public static final List<String> NAMES =
      List.of(
          "q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1",
          "q4.2", "q4.3");

  /**
   * An ORDER BY item.
   *
   * @param label the result column's label (a column name or alias of the select list)
   * @param descending DESC
   */
  public record OrderKey(String label, boolean descending) {}

  private static final Pattern ORDER_BY =
      Pattern.compile("(?is)\\border\\s+by\\s+(.*)$", Pattern.DOTALL);

  /** All 13, in order. */
  public static List<SsbQuery> all() {
    List<SsbQuery> out = new ArrayList<>();
    for (String n : NAMES) {
      out.add(load(n));
    }
    return List.copyOf(out);
  }

  /** Loads {@code /workloads/ssb/NAME.sql} from the classpath. */
  public static SsbQuery load(String name) {
    String path = "/workloads/ssb/" + name + ".sql";
    String text;
    try (InputStream in = SsbQuery.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder b = new StringBuilder();
    for (String line : text.split("\n")) {
      if (!line.strip().startsWith("--")) {
        b.append(line).append('\n');
      }
    }
    String sql = b.toString().strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    return new SsbQuery(name, sql, orderBy(sql));
  }

  static List<OrderKey> orderBy(String sql) {
    Matcher m = ORDER_BY.matcher(sql);
    List<OrderKey> keys = new ArrayList<>();
    if (!m.find()) {
      return keys;
    }
    for (String item : m.group(1).split(",")) {
      String[] w = item.strip().split("\\s+");
      boolean desc = w.length > 1 && w[1].toLowerCase(Locale.ROOT).equals("desc");
      keys.add(new OrderKey(w[0].toLowerCase(Locale.ROOT), desc));
    }
    return List.copyOf(keys);
  }
}
