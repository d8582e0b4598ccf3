package dev.wg1bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;

/** The report's table of advice verdicts, read from the results' {@code advice} arrays. */
final class AdviceHtml {
  static final List<String> ADVICE_COLUMNS =
      List.of(
          "name",
          "target",
          "claim",
          "seed",
          "baseline",
          "treatment",
          "blocks",
          "baselineTps",
          "treatmentTps",
          "ratio",
          "ciLow",
          "ciHigh",
          "holmP",
          "p99Ratio",
          "retriesAdded",
          "failuresAdded",
          "verdictText",
          "mechanism");

  private AdviceHtml() {}

  static void section(StringBuilder h, List<HtmlReport.Source> sources) {
    h.append("<h2 id=\"advice\">Advice</h2>\n");
    h.append(
        "<p>ratio: treatment / baseline, geometric mean over the blocks; ciLow, ciHigh: its 95%"
            + " Student interval (not adjusted); holmP: p adjusted over the run's claims"
            + " (Holm); p99Ratio: the same ratio for p99 latency; mechanism: how the arms differ per op,"
            + " the largest differences first.</p>\n");
    Html.tableHead(h, List.of(), ADVICE_COLUMNS);
    for (HtmlReport.Source s : sources) {
      for (JsonNode a : s.advice()) {
        h.append("<tr>");
        for (String c : ADVICE_COLUMNS) {
          JsonNode v = a.get(c);
          if (v != null && v.isNumber()) {
            h.append("<td class=\"n\">")
                .append(String.format(Locale.ROOT, "%.3f", v.asDouble()))
                .append("</td>");
          } else if (c.equals("verdictText")) {
            // results written before verdicts had a text carry only the verdict
            String text = HtmlReport.text(v != null ? v : a.get("verdict"));
            h.append("<td class=\"verdict\"><strong>")
                .append(HtmlReport.esc(text))
                .append("</strong></td>");
          } else {
            h.append("<td>").append(HtmlReport.esc(HtmlReport.text(v))).append("</td>");
          }
        }
        h.append("</tr>\n");
      }
    }
    h.append("</tbody>\n</table>\n");
  }
}
