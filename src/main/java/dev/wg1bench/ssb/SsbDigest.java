package dev.wg1bench.ssb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A digest of an SSB query result that does not depend on the plan, the parallel settings, the
 * partitioning or the server's collation: rows in the query's ORDER BY (text keys compared by code
 * point, as the C collation does; ties, e.g. equal revenues, broken by the whole row), each row's
 * columns as normalized text joined with {@code |} (numerics printed plainly without trailing
 * zeros, trailing spaces of char(n) trimmed, NULL as {@code \N}), rows joined by {@code \n}, then
 * sha256 of the UTF-8 bytes.
 *
 * @param rows number of rows
 * @param sha256 lowercase hex
 */
public record SsbDigest(long rows, String sha256) {

  /** Reference digests shipped with wg1bench: key {@code SF.QUERY}, value {@code ROWS SHA256}. */
  public static final String REFERENCE = "/ssb/digests.properties";

  /** Reads the whole result set and digests it. */
  public static SsbDigest of(SsbQuery q, ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    int[] keyCols = new int[q.orderBy().size()];
    for (int k = 0; k < keyCols.length; k++) {
      keyCols[k] = -1;
      for (int i = 1; i <= n; i++) {
        if (md.getColumnLabel(i).equalsIgnoreCase(q.orderBy().get(k).label())) {
          keyCols[k] = i - 1;
        }
      }
      if (keyCols[k] < 0) {
        throw new IllegalStateException(
            q.name() + ": ORDER BY " + q.orderBy().get(k).label() + " is not a result column");
      }
    }
    List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] r = new Object[n + 1];
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < n; i++) {
        Object v = normalize(rs.getObject(i + 1));
        r[i] = v;
        if (i > 0) {
          text.append('|');
        }
        text.append(v instanceof BigDecimal d ? plain(d) : v == null ? "\\N" : v.toString());
      }
      r[n] = text.toString();
      rows.add(r);
    }
    Comparator<Object[]> order = (a, b) -> 0;
    for (int k = 0; k < keyCols.length; k++) {
      int col = keyCols[k];
      Comparator<Object[]> c = (a, b) -> compare(a[col], b[col]);
      order = order.thenComparing(q.orderBy().get(k).descending() ? c.reversed() : c);
    }
    order = order.thenComparing(r -> (String) r[n]);
    rows.sort(order);
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      if (i > 0) {
        all.append('\n');
      }
      all.append((String) rows.get(i)[n]);
    }
    return new SsbDigest(rows.size(), sha256(all.toString()));
  }

  /** Numbers as BigDecimal, strings without trailing spaces (char(n) padding). */
  private static Object normalize(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof Double || v instanceof Float) {
      return BigDecimal.valueOf(((Number) v).doubleValue());
    }
    return v.toString().stripTrailing();
  }

  private static String plain(BigDecimal d) {
    return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
  }

  @SuppressWarnings("unchecked")
  private static int compare(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y);
    }
    return a.toString().compareTo(b.toString());
  }

  static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The shipped reference for a scale factor and query, or null. */
  public static SsbDigest reference(String scaleFactor, String query) {
    String v = references().getProperty(scaleFactor + "." + query);
    if (v == null) {
      return null;
    }
    String[] p = v.trim().split("\\s+");
    return new SsbDigest(Long.parseLong(p[0]), p[1].toLowerCase(Locale.ROOT));
  }

  /** Scale factors with reference digests, e.g. [0.01, 0.1, 1]. */
  public static List<String> referenceScales() {
    List<String> out = new ArrayList<>();
    for (String k : references().stringPropertyNames()) {
      String sf = k.substring(0, k.indexOf(".q"));
      if (!out.contains(sf)) {
        out.add(sf);
      }
    }
    out.sort(Comparator.comparing(BigDecimal::new));
    return out;
  }

  private static Properties references() {
    Properties p = new Properties();
    try (InputStream in = SsbDigest.class.getResourceAsStream(REFERENCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  @Override
  public String toString() {
    return rows + " " + sha256;
  }
}
