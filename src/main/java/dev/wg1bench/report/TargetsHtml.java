package dev.wg1bench.report;

import dev.wg1bench.result.ClientInfo;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ServerInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The Targets section: per target, what every one of its trials shares (server, settings, driver)
 * as one key-value table, and what differs from point to point (query mode, clients, ...) as a
 * table with one row per point, so no cell ever holds the values of two different points.
 */
final class TargetsHtml {
  private TargetsHtml() {}

  /** One property of a trial's target or client connection, as the page names it. */
  private record Prop(String name, Function<TrialResult, String> of) {}

  private static final List<Prop> PROPS =
      List.of(
          new Prop("kind", TrialResult::targetKind),
          new Prop("URL", TrialResult::url),
          new Prop("dataset", TrialResult::dataset),
          new Prop("server", t -> server(t.server())),
          new Prop("server settings", t -> settings(t.server())),
          new Prop("pgjdbc", c(ClientInfo::pgjdbc)),
          new Prop("query mode", c(ClientInfo::queryMode)),
          new Prop("isolation", c(ClientInfo::isolation)),
          new Prop("sslmode", c(ClientInfo::sslmode)),
          new Prop("ssl", c(ClientInfo::ssl)),
          new Prop("clients", c(ci -> Integer.toString(ci.clients()))),
          new Prop(
              "pool",
              c(
                  ci ->
                      ci.pool() == null
                          ? "none (one connection per client)"
                          : ci.pool().implementation() + ", " + ci.pool().size() + " connections")),
          new Prop(
              "session settings",
              c(
                  ci ->
                      ci.sessionSettings() == null || ci.sessionSettings().isEmpty()
                          ? null
                          : new TreeMap<>(ci.sessionSettings()).toString())),
          new Prop(
              "driver",
              c(
                  ci ->
                      "prepareThreshold="
                          + ci.prepareThreshold()
                          + ", binaryTransfer="
                          + ci.binaryTransfer()
                          + ", fetchSize="
                          + ci.fetchSize()
                          + ", reWriteBatchedInserts="
                          + ci.rewriteBatchedInserts()
                          + ", rtt "
                          + ci.rttText()
                          + (ci.jdbcProperties() == null || ci.jdbcProperties().isEmpty()
                              ? ""
                              : ", " + new TreeMap<>(ci.jdbcProperties())))));

  private static Function<TrialResult, String> c(Function<ClientInfo, String> f) {
    return t -> t.client() == null ? null : f.apply(t.client());
  }

  /**
   * The server as one text, its version once: version() already names product and version
   * ("PostgreSQL 17.5 on x86_64-pc-linux-gnu, compiled by ..."), server_version only when it is all
   * there is.
   */
  static String server(ServerInfo s) {
    if (s == null) {
      return null;
    }
    if (s.versionString() != null && !s.versionString().isBlank()) {
      return s.versionString();
    }
    return s.version() == null ? null : "PostgreSQL " + s.version();
  }

  /** Product and version only ("PostgreSQL 17.5"), for plot titles. */
  static String serverShort(ServerInfo s) {
    String full = server(s);
    if (full == null) {
      return null;
    }
    int cut = full.length();
    for (String sep : List.of(" on ", ",", " (")) {
      int i = full.indexOf(sep);
      if (i > 0) {
        cut = Math.min(cut, i);
      }
    }
    return full.substring(0, cut);
  }

  private static String settings(ServerInfo s) {
    if (s == null || s.settings() == null || s.settings().isEmpty()) {
      return null;
    }
    StringBuilder set = new StringBuilder();
    for (String k : ServerInfo.RELEVANT) {
      if (s.settings().containsKey(k)) {
        set.append(set.length() == 0 ? "" : ", ").append(k).append('=').append(s.settings().get(k));
      }
    }
    return set.toString();
  }

  static void section(StringBuilder h, List<TrialResult> trials) {
    Map<String, List<TrialResult>> byTarget = new LinkedHashMap<>();
    for (TrialResult t : ReportOrder.sortedTrials(trials)) {
      byTarget.computeIfAbsent(Html.nz(t.target()), k -> new ArrayList<>()).add(t);
    }
    for (Map.Entry<String, List<TrialResult>> e : byTarget.entrySet()) {
      target(h, e.getKey(), e.getValue());
    }
  }

  private static void target(StringBuilder h, String name, List<TrialResult> ts) {
    // the trials come sorted by point: group them so each point is one row
    Map<Map<String, String>, List<TrialResult>> byPoint = new LinkedHashMap<>();
    ts.forEach(t -> byPoint.computeIfAbsent(t.point(), k -> new ArrayList<>()).add(t));
    List<Prop> shared = new ArrayList<>();
    List<Prop> perPoint = new ArrayList<>();
    for (Prop p : PROPS) {
      Set<String> values = new LinkedHashSet<>();
      ts.forEach(t -> values.add(Html.nz(p.of().apply(t))));
      (values.size() > 1 ? perPoint : shared).add(p);
    }
    h.append("<h3>").append(Html.esc(name)).append("</h3>\n<table class=\"kv\">\n");
    for (Prop p : shared) {
      Html.kv(h, p.name(), p.of().apply(ts.get(0)));
    }
    h.append("</table>\n");
    if (perPoint.isEmpty()) {
      return;
    }
    h.append("<p>Differs between points:</p>\n<table>\n<thead><tr>");
    Html.th(h, "point");
    perPoint.forEach(p -> Html.th(h, p.name()));
    h.append("</tr></thead>\n<tbody>\n");
    List<String> keys = varyingKeys(byPoint.keySet());
    for (Map.Entry<Map<String, String>, List<TrialResult>> e : byPoint.entrySet()) {
      h.append("<tr>");
      Html.td(h, Plots.label(e.getKey(), keys));
      for (Prop p : perPoint) {
        // repeats of one point normally agree; if they do not (ssl renegotiated, say) say so
        Set<String> v = new LinkedHashSet<>();
        e.getValue().forEach(t -> v.add(Html.nz(p.of().apply(t))));
        Html.td(h, String.join(" / ", v));
      }
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  /** The point keys whose values differ among these points (the target is the heading). */
  private static List<String> varyingKeys(Set<Map<String, String>> points) {
    List<String> out = new ArrayList<>();
    for (String k : ReportOrder.keys(points)) {
      Set<String> v = new LinkedHashSet<>();
      points.forEach(p -> v.add(String.valueOf(p.get(k))));
      if (v.size() > 1) {
        out.add(k);
      }
    }
    if (out.isEmpty()) {
      out.add("clients");
    }
    return out;
  }
}
