package dev.wg1bench.report;

import dev.wg1bench.result.PointSummary;
import dev.wg1bench.result.TrialResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The table the PGECons WG1 reports print under their figures: one row per client count, one column
 * per configuration (whatever else varies between points: target, query mode, isolation, a server
 * setting...), median tps in the cells, and each configuration's ratio to a baseline.
 *
 * <p>The baseline is chosen with {@code report --baseline}: a column's label ("local, simple"), or
 * knob values ({@code queryMode=simple}, {@code target=local,queryMode=simple}). Knob values that
 * leave other knobs open match several columns: each column is then read against the baseline
 * column that agrees with it on those other knobs (prepared against simple on the same target).
 * Default: the first column.
 */
final class ClientsTable {
  /** {@code --baseline} that matches no column of any workload: a usage error. */
  static final class BadBaseline extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadBaseline(String message) {
      super(message);
    }
  }

  /** One configuration: its knob values (point minus workload and clients) and its label. */
  record Column(String label, Map<String, String> config) {}

  /**
   * One workload's table.
   *
   * @param tps median tps per [row][column], NaN where the point was not run
   * @param error ± half-width of the 95% interval when the point has one trial with an interval,
   *     else NaN (several repeats: the summary's min and max say the spread)
   * @param baseline per column, the index of its baseline column, -1 when none matches
   */
  record Table(
      String workload,
      List<Integer> clients,
      List<Column> columns,
      double[][] tps,
      double[][] error,
      int[] baseline) {

    /** tps of column c over its baseline's at row r; NaN without a baseline or a value. */
    double ratio(int r, int c) {
      int b = baseline[c];
      if (b < 0 || Double.isNaN(tps[r][c]) || Double.isNaN(tps[r][b]) || tps[r][b] == 0) {
        return Double.NaN;
      }
      return tps[r][c] / tps[r][b];
    }

    boolean isBaseline(int c) {
      for (int b : baseline) {
        if (b == c) {
          return true;
        }
      }
      return false;
    }
  }

  private ClientsTable() {}

  /**
   * One table per workload, in report order.
   *
   * @param baseline the --baseline text, null for the first column
   * @throws BadBaseline when the baseline matches no column of any workload
   */
  static List<Table> of(List<PointSummary> summaries, List<TrialResult> trials, String baseline) {
    Map<String, List<PointSummary>> byWorkload = new LinkedHashMap<>();
    for (PointSummary s : ReportOrder.sortedSummaries(summaries)) {
      byWorkload.computeIfAbsent(Plots.workload(s.point()), k -> new ArrayList<>()).add(s);
    }
    Map<Map<String, String>, List<TrialResult>> trialsByPoint = new LinkedHashMap<>();
    trials.forEach(t -> trialsByPoint.computeIfAbsent(t.point(), k -> new ArrayList<>()).add(t));
    List<Table> out = new ArrayList<>();
    boolean matched = baseline == null;
    Set<String> labels = new LinkedHashSet<>();
    for (Map.Entry<String, List<PointSummary>> e : byWorkload.entrySet()) {
      Table t = table(e.getKey(), e.getValue(), trialsByPoint, baseline);
      out.add(t);
      t.columns().forEach(c -> labels.add(c.label()));
      matched |= Arrays.stream(t.baseline()).anyMatch(b -> b >= 0);
    }
    if (!matched) {
      throw new BadBaseline(
          "--baseline '"
              + baseline
              + "' matches no column; give a column ("
              + String.join(" | ", labels)
              + ") or KNOB=VALUE[,KNOB=VALUE] with knobs "
              + String.join(", ", knobs(summaries)));
    }
    return out;
  }

  private static Table table(
      String workload,
      List<PointSummary> ps,
      Map<Map<String, String>, List<TrialResult>> trialsByPoint,
      String baseline) {
    List<String> varying = Plots.varying(ps);
    TreeSet<Integer> clientSet = new TreeSet<>();
    ps.forEach(p -> clientSet.add(Plots.clients(p.point())));
    List<Integer> clients = new ArrayList<>(clientSet);
    Map<Map<String, String>, Column> columns = new LinkedHashMap<>();
    for (PointSummary p : ps) {
      Map<String, String> config = config(p.point());
      columns.computeIfAbsent(config, c -> new Column(label(c, varying), c));
    }
    List<Column> cols = new ArrayList<>(columns.values());
    Comparator<Map<String, String>> order =
        ReportOrder.points(ReportOrder.keys(cols.stream().map(Column::config).toList()));
    cols.sort((a, b) -> order.compare(a.config(), b.config()));
    double[][] tps = new double[clients.size()][cols.size()];
    double[][] err = new double[clients.size()][cols.size()];
    for (double[] row : tps) {
      Arrays.fill(row, Double.NaN);
    }
    for (double[] row : err) {
      Arrays.fill(row, Double.NaN);
    }
    for (PointSummary p : ps) {
      int r = clients.indexOf(Plots.clients(p.point()));
      int c = indexOf(cols, config(p.point()));
      tps[r][c] = p.medianTps();
      List<TrialResult> ts = trialsByPoint.getOrDefault(p.point(), List.of());
      if (ts.size() == 1 && ts.get(0).measurement().tpsError() != null) {
        err[r][c] = ts.get(0).measurement().tpsError();
      }
    }
    return new Table(workload, clients, cols, tps, err, baselines(cols, baseline));
  }

  /** The point without workload and clients: what makes one column. */
  private static Map<String, String> config(Map<String, String> point) {
    Map<String, String> c = new LinkedHashMap<>(point);
    c.remove("workload");
    c.remove("clients");
    return c;
  }

  private static String label(Map<String, String> config, List<String> varying) {
    if (varying.isEmpty()) {
      String target = config.get("target");
      return target == null ? "all points" : target;
    }
    return Plots.label(config, varying);
  }

  private static int indexOf(List<Column> cols, Map<String, String> config) {
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).config().equals(config)) {
        return i;
      }
    }
    throw new IllegalStateException("no column for " + config);
  }

  /** For each column, the index of the column it is read against. */
  static int[] baselines(List<Column> cols, String spec) {
    int[] out = new int[cols.size()];
    Arrays.fill(out, -1);
    if (cols.isEmpty()) {
      return out;
    }
    if (spec == null) {
      Arrays.fill(out, 0);
      return out;
    }
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).label().equalsIgnoreCase(spec.trim())) {
        Arrays.fill(out, i);
        return out;
      }
    }
    Map<String, String> want = parse(spec);
    if (want == null) {
      return out;
    }
    for (int x = 0; x < cols.size(); x++) {
      Map<String, String> cx = cols.get(x).config();
      for (int b = 0; b < cols.size(); b++) {
        Map<String, String> cb = cols.get(b).config();
        if (matches(cb, want) && sameOutside(cx, cb, want.keySet())) {
          out[x] = b;
          break;
        }
      }
    }
    return out;
  }

  /** "k=v,k2=v2" as a map with the keys as the points spell them; null when not that form. */
  private static Map<String, String> parse(String spec) {
    Map<String, String> want = new LinkedHashMap<>();
    for (String part : spec.split(",")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        return null;
      }
      want.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
    }
    return want;
  }

  private static boolean matches(Map<String, String> config, Map<String, String> want) {
    for (Map.Entry<String, String> w : want.entrySet()) {
      String v = get(config, w.getKey());
      if (v == null || !v.equalsIgnoreCase(w.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Knob names match without regard to case: queryMode, querymode. */
  private static String get(Map<String, String> config, String key) {
    for (Map.Entry<String, String> e : config.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static boolean sameOutside(
      Map<String, String> a, Map<String, String> b, Set<String> fixed) {
    Set<String> keys = new LinkedHashSet<>(a.keySet());
    keys.addAll(b.keySet());
    for (String k : keys) {
      if (fixed.stream().anyMatch(f -> f.equalsIgnoreCase(k))) {
        continue;
      }
      if (!Objects.equals(a.get(k), b.get(k))) {
        return false;
      }
    }
    return true;
  }

  private static List<String> knobs(List<PointSummary> summaries) {
    Set<String> k = new LinkedHashSet<>();
    summaries.forEach(s -> k.addAll(config(s.point()).keySet()));
    return new ArrayList<>(k);
  }

  /** Ratio as the table prints it: two decimals. */
  static String ratio(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
  }

  static void html(StringBuilder h, List<Table> tables, String baseline) {
    h.append(
            "<p>Median tps at each point (ops/s; &plusmn; the 95% interval when the point ran once),"
                + " one row per client count, one column per configuration, then each"
                + " configuration's ratio to its baseline (")
        .append(
            baseline == null
                ? "the first column; choose another with <code>report --baseline</code>"
                : "<code>--baseline " + Html.esc(baseline) + "</code>")
        .append(").</p>\n");
    for (Table t : tables) {
      if (tables.size() > 1) {
        h.append("<h3>").append(Html.esc(t.workload())).append("</h3>\n");
      }
      List<Integer> ratioCols = new ArrayList<>();
      for (int c = 0; c < t.columns().size(); c++) {
        if (t.baseline()[c] >= 0 && t.baseline()[c] != c) {
          ratioCols.add(c);
        }
      }
      h.append("<table class=\"grid\">\n<thead><tr><th rowspan=\"2\">clients</th>")
          .append("<th colspan=\"")
          .append(t.columns().size())
          .append("\">tps</th>");
      if (!ratioCols.isEmpty()) {
        h.append("<th colspan=\"").append(ratioCols.size()).append("\">ratio</th>");
      }
      h.append("</tr>\n<tr>");
      for (int c = 0; c < t.columns().size(); c++) {
        Html.th(h, t.columns().get(c).label() + (t.isBaseline(c) ? " (baseline)" : ""));
      }
      for (int c : ratioCols) {
        Html.th(h, t.columns().get(c).label() + " / " + t.columns().get(t.baseline()[c]).label());
      }
      h.append("</tr></thead>\n<tbody>\n");
      for (int r = 0; r < t.clients().size(); r++) {
        h.append("<tr>");
        Html.num(h, Integer.toString(t.clients().get(r)));
        for (int c = 0; c < t.columns().size(); c++) {
          double e = t.error()[r][c];
          Html.num(
              h,
              HtmlReport.tps(t.tps()[r][c])
                  + (Double.isNaN(e) ? "" : " \u00b1 " + HtmlReport.tps(e)));
        }
        for (int c : ratioCols) {
          Html.num(h, ratio(t.ratio(r, c)));
        }
        h.append("</tr>\n");
      }
      h.append("</tbody>\n</table>\n");
    }
  }

  /**
   * The tables as one CSV: workload, clients, then per configuration its tps and its ratio to its
   * baseline (the union of the workloads' configurations, empty where a workload lacks one).
   */
  static String csv(List<Table> tables) {
    List<String> labels = new ArrayList<>();
    for (Table t : tables) {
      t.columns()
          .forEach(
              c -> {
                if (!labels.contains(c.label())) {
                  labels.add(c.label());
                }
              });
    }
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("workload", "clients"));
    labels.forEach(l -> header.add(l + " tps"));
    labels.forEach(l -> header.add(l + " ratio"));
    rows.add(header);
    for (Table t : tables) {
      for (int r = 0; r < t.clients().size(); r++) {
        List<String> f = new ArrayList<>(List.of(t.workload(), t.clients().get(r).toString()));
        List<String> ratios = new ArrayList<>();
        for (String l : labels) {
          int c = -1;
          for (int i = 0; i < t.columns().size(); i++) {
            if (t.columns().get(i).label().equals(l)) {
              c = i;
            }
          }
          f.add(c < 0 ? "" : CsvReport.num(t.tps()[r][c]));
          ratios.add(c < 0 ? "" : CsvReport.num(round(t.ratio(r, c))));
        }
        f.addAll(ratios);
        rows.add(f);
      }
    }
    return CsvReport.csv(rows);
  }

  /** Four decimals in the CSV: enough for a spreadsheet, without binary noise. */
  private static double round(double v) {
    return Double.isNaN(v) ? v : Math.round(v * 10000) / 10000.0;
  }
}
