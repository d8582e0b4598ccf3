package dev.wg1bench.history.gate;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.wg1bench.history.analysis.ChangePointAnalysis;
import dev.wg1bench.history.analysis.ChangePointOutput;
import dev.wg1bench.history.analysis.CountTest;
import dev.wg1bench.json.Json;
import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.stats.Verdict;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code history check}'s findings and their two formats: the console's one line per series that
 * needs a word (regressed, improved, borderline, re-measured) and a summary line, and JSON with the
 * same figures for every series judged. The gate's outcome of a series is the history's, changed
 * only by a same-machine re-measurement that settled it ({@link Confirmation}).
 */
public final class GateReport {
  private GateReport() {}

  /**
   * One series through the gate.
   *
   * @param name the series
   * @param metric its metric
   * @param history what the history alone says
   * @param borderline worse with p between the gate's level and the borderline level
   * @param comparison the baseline segment against the latest runs
   * @param confirmation the blocks' answer where the series was re-measured, else null
   * @param outcome the gate's outcome: the history's, unless the blocks confirmed or cleared it
   * @param counts a count series' test (failed ops, retries: rates per attempted op), else null
   */
  public record Checked(
      String name,
      String metric,
      RegressionGate.Outcome history,
      boolean borderline,
      ChangePointAnalysis.Point comparison,
      Confirmation.Confirmed confirmation,
      RegressionGate.Outcome outcome,
      CountTest.Counted counts) {}

  /**
   * The whole check.
   *
   * @param outcome regression when any series regressed, else pass
   * @param exitCode the process's exit code
   * @param last how many latest runs are the candidate
   * @param p the gate's level
   * @param borderlineP the looser level of a borderline series
   * @param magnitude the smallest change that counts
   * @param confirmedOn where the blocks ran (their result file; with several configurations, the
   *     first one's, each confirmation naming its own), or null when nothing was re-measured
   * @param series every series judged, in the history's order
   */
  public record Gate(
      String outcome,
      int exitCode,
      int last,
      double p,
      double borderlineP,
      double magnitude,
      String confirmedOn,
      List<Checked> series) {}

  /** One series' outcome from the history's judgement and, if it was re-measured, the blocks'. */
  public static Checked of(RegressionGate.Judged j, String metric, Confirmation.Confirmed c) {
    RegressionGate.Outcome history = j.outcome();
    RegressionGate.Outcome outcome = history;
    if (c != null && c.decision() == Confirmation.Decision.CONFIRMED) {
      outcome = RegressionGate.Outcome.REGRESSION;
    } else if (c != null && c.decision() == Confirmation.Decision.CLEARED && j.worse()) {
      // the blocks showed the candidate equivalent or better: the history's alarm was noise
      outcome = RegressionGate.Outcome.PASS;
    }
    return new Checked(
        j.name(), metric, history, j.borderline(), j.comparison(), c, outcome, j.counts());
  }

  /** The JSON document. */
  public static String json(Gate g) {
    try {
      return Json.MAPPER.writeValueAsString(g) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The console's lines: each series that needs a word, then the summary. */
  public static List<String> lines(Gate g) {
    List<String> out = new ArrayList<>();
    for (Checked c : g.series()) {
      String head = head(c);
      if (head != null) {
        String said =
            c.counts() != null ? c.counts().words() : ChangePointOutput.line(c.comparison());
        out.add(head + " " + c.name() + ": " + said);
      }
      if (c.confirmation() != null) {
        out.add("  re-measured on this machine: " + remeasured(c.confirmation()));
        Confirmation.Arms a = c.confirmation().arms();
        out.add(
            "  configuration "
                + a.configuration()
                + ": baseline '"
                + a.baseline()
                + "', candidate '"
                + a.candidate()
                + "'");
      }
    }
    long regressed =
        g.series().stream().filter(c -> c.outcome() == RegressionGate.Outcome.REGRESSION).count();
    long improved =
        g.series().stream().filter(c -> c.outcome() == RegressionGate.Outcome.IMPROVEMENT).count();
    long borderline = g.series().stream().filter(Checked::borderline).count();
    long remeasured = g.series().stream().filter(c -> c.confirmation() != null).count();
    out.add(
        String.format(
            Locale.ROOT,
            "history check: %d series, %d regressed, %d improved, %d borderline, %d re-measured"
                + " (last %d %s against the segment before, p <= %s, borderline p <= %s,"
                + " magnitude > %s)",
            g.series().size(),
            regressed,
            improved,
            borderline,
            remeasured,
            g.last(),
            g.last() == 1 ? "run" : "runs",
            g.p(),
            g.borderlineP(),
            g.magnitude()));
    return out;
  }

  /** The word a series' line starts with, or null when it passed without anything to say. */
  private static String head(Checked c) {
    if (c.outcome() == RegressionGate.Outcome.REGRESSION) {
      return "REGRESSION";
    }
    if (c.outcome() == RegressionGate.Outcome.IMPROVEMENT) {
      return "improvement";
    }
    if (c.history() == RegressionGate.Outcome.REGRESSION) {
      return "cleared";
    }
    return c.borderline() ? "borderline" : null;
  }

  private static String remeasured(Confirmation.Confirmed c) {
    AdviceResult r = c.result();
    String ratio =
        r.ratio() == null
            ? "no complete block"
            : String.format(
                Locale.ROOT,
                "candidate / baseline %s %.3f%s over %d blocks%s",
                r.metric(),
                r.ratio(),
                r.ciLow() == null
                    ? ""
                    : String.format(
                        Locale.ROOT,
                        " [%.3f, %.3f] (geometric mean; 95%% CI, paired t over the blocks' log"
                            + " ratios)",
                        r.ciLow(),
                        r.ciHigh()),
                r.blocks(),
                r.holmP() == null ? "" : String.format(Locale.ROOT, ", Holm p %.3g", r.holmP()));
    String said =
        switch (c.decision()) {
          case CONFIRMED -> "the regression is confirmed";
          case CLEARED ->
              "no regression ("
                  + (r.verdict() == Verdict.Kind.CONTRADICTS
                      ? "the candidate is better" + r.verdictText().replaceFirst("^contradicts", "")
                      : r.verdictText())
                  + ")";
          case UNSETTLED ->
              r.verdict() == Verdict.Kind.BROKEN
                  ? r.failure() != null ? "could not run (" + r.failure() + ")" : r.verdictText()
                  : "not settled (" + r.verdictText() + "); the history's outcome stands";
        };
    return ratio + ": " + said;
  }
}
