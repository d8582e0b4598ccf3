package dev.wg1bench.report;

import java.util.List;

/** The HTML page's small parts: escaping, table cells, the style sheet. */
final class Html {
  private Html() {}

  static void link(StringBuilder h, String id, String text) {
    h.append("<a href=\"#").append(id).append("\">").append(text).append("</a> ");
  }

  static void kv(StringBuilder h, String k, String v) {
    if (v == null || v.isBlank()) {
      return;
    }
    h.append("<tr><th>").append(esc(k)).append("</th><td>").append(esc(v)).append("</td></tr>\n");
  }

  static void th(StringBuilder h, String s) {
    h.append("<th>").append(esc(s)).append("</th>");
  }

  /**
   * Opens a table and writes its header row, the point's keys first, then the columns; the body is
   * open after it, for the caller's rows and its closing {@code </tbody></table>}.
   */
  static void tableHead(StringBuilder h, List<String> keys, List<String> columns) {
    h.append("<table>\n<thead><tr>");
    keys.forEach(k -> th(h, k));
    columns.forEach(c -> th(h, c));
    h.append("</tr></thead>\n<tbody>\n");
  }

  static void td(StringBuilder h, String s) {
    h.append("<td>").append(esc(nz(s))).append("</td>");
  }

  /** Program text (a statement), in a code face. */
  static void code(StringBuilder h, String s) {
    h.append("<td><code>").append(esc(nz(s))).append("</code></td>");
  }

  /** A date: never wrapped in the middle. */
  static void date(StringBuilder h, String s) {
    h.append("<td class=\"d\">").append(esc(nz(s))).append("</td>");
  }

  static void num(StringBuilder h, String s) {
    h.append("<td class=\"n\">").append(esc(s)).append("</td>");
  }

  /** HTML text and attribute escaping. */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    return s.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
  }

  static final String CSS =
      """
      body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em auto;
             max-width: 1200px; padding: 0 1em; color: #222; }
      h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
      nav a { margin-right: 1em; }
      table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.92em;
              display: block; max-width: 100%; overflow-x: auto; }
      th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
      thead th { background: #f3f3f3; position: sticky; top: 0; }
      table.kv th { background: #f8f8f8; white-space: nowrap; }
      table.kv td, td.msg { overflow-wrap: anywhere; }
      p.lead { font-size: 1.05em; }
      table.headline { font-size: 1.1em; } table.headline td { vertical-align: middle; }
      td.big { font-size: 1.4em; font-weight: 600; } td.big small { font-size: 0.6em; font-weight: 400; }
      td.ok { color: #1a7f37; font-weight: 600; } td.bad { color: #b42318; font-weight: 600; }
      td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      td.d { white-space: nowrap; }
      details { margin: 1em 0; } summary { cursor: pointer; font-weight: 600; }
      ol.runorder { columns: 2; font-size: 0.9em; }
      td.msg { font-family: monospace; white-space: pre-wrap; }
      tbody tr:nth-child(even) { background: #fafafa; }
      div.figs { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr));
                 gap: 0 1.5em; }
      div.figs > details { grid-column: 1 / -1; }
      figure { margin: 1em 0 2em; min-width: 0; }
      figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
      figcaption { color: #555; font-size: 0.9em; }
      footer { margin-top: 3em; color: #777; font-size: 0.85em; }
      """;
}
