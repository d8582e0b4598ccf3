package dev.wg1bench.advise;

import dev.wg1bench.result.AdviceResult;
import dev.wg1bench.result.ErrorRecord;
import dev.wg1bench.result.TrialResult;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether both arms of a comparison worked, before any ratio is read: an arm whose ops failed above
 * the allowed share, that did not run as asked (a client could not start, the pool could not fill),
 * of which a block measured nothing, or that could not run is broken, a verdict of its own. A ratio
 * of two runs of which one is broken says nothing about speed: tps counts successes, so failing
 * fast would look faster, and failing every op gives log(0).
 *
 * @param blockOps each block's failed and attempted ops per arm
 * @param brokenArm baseline or treatment, null when both worked
 * @param reason what is wrong, in words with the counts, null when both worked
 * @param sqlState the broken arm's first error's SQLSTATE, or null
 * @param message the broken arm's first error's message, or null
 */
public record ArmHealth(
    List<AdviceResult.BlockOps> blockOps,
    String brokenArm,
    String reason,
    String sqlState,
    String message) {

  /**
   * Judges the blocks' counts against the allowed failure rate.
   *
   * @param failure why the claim could not go on (an arm could not run), or null
   * @param failedArm the arm that could not run when known, else null
   */
  static ArmHealth of(
      List<Analysis.Block> blocks,
      String metric,
      double allowed,
      String failure,
      String failedArm) {
    List<AdviceResult.BlockOps> ops = new ArrayList<>();
    for (Analysis.Block b : blocks) {
      ops.add(
          new AdviceResult.BlockOps(
              b.index(),
              failed(b.baseline()),
              attempted(b.baseline()),
              failed(b.treatment()),
              attempted(b.treatment())));
    }
    for (String arm : List.of("treatment", "baseline")) {
      String why = failing(ops, arm, allowed);
      if (why == null) {
        why = notAsAsked(blocks, arm);
      }
      if (why == null) {
        why = empty(blocks, arm, metric);
      }
      if (why != null) {
        ErrorRecord e = firstError(blocks, arm);
        return new ArmHealth(
            ops, arm, why, e == null ? null : e.sqlState(), e == null ? null : e.firstMessage());
      }
    }
    if (failure != null) {
      String arm = failedArm == null ? "an arm" : "the " + failedArm;
      return new ArmHealth(ops, failedArm, arm + " could not run: " + failure, null, null);
    }
    return new ArmHealth(ops, null, null, null, null);
  }

  /** A fraction as a percentage in plain digits: 0.05 as "5%", 0.0125 as "1.25%". */
  public static String percent(double fraction) {
    return BigDecimal.valueOf(100 * fraction)
            .round(new MathContext(3))
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  public boolean broken() {
    return reason != null;
  }

  /** Whether this block's metric can enter a log ratio: both arms measured a positive figure. */
  static boolean usable(Analysis.Block b, String metric) {
    return positive(Analysis.value(metric, b.baseline()))
        && positive(Analysis.value(metric, b.treatment()));
  }

  private static boolean positive(double v) {
    return Double.isFinite(v) && v > 0;
  }

  /** The arm's failures in words when their share is above the allowed one, else null. */
  private static String failing(List<AdviceResult.BlockOps> ops, String arm, double allowed) {
    long failed = 0;
    long attempted = 0;
    List<String> perBlock = new ArrayList<>();
    for (AdviceResult.BlockOps o : ops) {
      long f = arm.equals("baseline") ? o.baselineFailed() : o.treatmentFailed();
      long a = arm.equals("baseline") ? o.baselineAttempted() : o.treatmentAttempted();
      failed += f;
      attempted += a;
      perBlock.add(f + "/" + a);
    }
    if (failed == 0 || failed <= allowed * attempted) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "the %s failed %d of %d attempted ops (%s, allowed %s); per block failed/attempted: %s",
        arm,
        failed,
        attempted,
        percent((double) failed / attempted),
        percent(allowed),
        String.join(", ", perBlock));
  }

  /**
   * The first block where this arm did not run as asked (a client could not start, the pool could
   * not fill), in words, or null: its figures are another workload's than the other arm's.
   */
  private static String notAsAsked(List<Analysis.Block> blocks, String arm) {
    for (Analysis.Block b : blocks) {
      TrialResult t = arm.equals("baseline") ? b.baseline() : b.treatment();
      if (t.measurement().notAsAsked() != null) {
        return "the "
            + arm
            + " did not run as asked in block "
            + b.index()
            + ": "
            + t.measurement().notAsAsked();
      }
    }
    return null;
  }

  /** The blocks where this arm measured nothing to compare, in words, or null. */
  private static String empty(List<Analysis.Block> blocks, String arm, String metric) {
    List<String> named = new ArrayList<>();
    for (Analysis.Block b : blocks) {
      TrialResult t = arm.equals("baseline") ? b.baseline() : b.treatment();
      if (!positive(Analysis.value(metric, t))) {
        named.add(String.valueOf(b.index()));
      }
    }
    if (named.isEmpty()) {
      return null;
    }
    return "the "
        + arm
        + " measured no "
        + metric
        + " in block"
        + (named.size() > 1 ? "s " : " ")
        + String.join(", ", named);
  }

  /** The arm's first error that failed an op (the first block's first), or its first at all. */
  private static ErrorRecord firstError(List<Analysis.Block> blocks, String arm) {
    ErrorRecord any = null;
    for (Analysis.Block b : blocks) {
      TrialResult t = arm.equals("baseline") ? b.baseline() : b.treatment();
      for (ErrorRecord e : t.errors() == null ? List.<ErrorRecord>of() : t.errors()) {
        if (e.count() > e.retried()) {
          return e;
        }
        any = any == null ? e : any;
      }
    }
    return any;
  }

  private static long failed(TrialResult t) {
    return t.measurement().totalFailedOps();
  }

  private static long attempted(TrialResult t) {
    return t.measurement().totalOps() + t.measurement().totalFailedOps();
  }
}
