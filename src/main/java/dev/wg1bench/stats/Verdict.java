package dev.wg1bench.stats;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What an estimated ratio says about a claim, one of four: <b>confirms</b> or <b>contradicts</b>
 * (Holm-adjusted p at most alpha, the ratio on the claimed or the opposite side of 1),
 * <b>equivalent</b> (the unadjusted 95% interval of the ratio inside [1/(1+M), 1+M]: a margin
 * symmetric in log space) or <b>inconclusive</b> (neither; with the blocks that would likely settle
 * it).
 *
 * @param kind confirms, contradicts, equivalent or inconclusive (broken is advise's, of an arm)
 * @param text the verdict as printed
 * @param moreBlocks for inconclusive: further blocks after which, if the observed mean and sd hold,
 *     the test or the equivalence check would settle it with 80% probability; else null
 */
public record Verdict(Kind kind, String text, Integer moreBlocks) {
  /**
   * What a claim's verdict is, whatever its text says: the four above, and advise's broken (an arm
   * whose ops failed above the allowed rate, that measured nothing in a block, or could not run),
   * which judges no speed. The JSON, the console and every message write it as its {@link
   * #label()}, lower case, as they wrote the strings it replaced.
   */
  public enum Kind {
    CONFIRMS,
    CONTRADICTS,
    EQUIVALENT,
    INCONCLUSIVE,
    BROKEN;

    /** "confirms", ...: the name the JSON and the texts use. */
    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
      return label();
    }
  }

  public static final double ALPHA = 0.05;

  /** Power asked of the "more blocks" estimate. */
  static final double SETTLE_POWER = 0.8;

  /** The most blocks a run is ever told to take. */
  public static final int MAX_BLOCKS = 1000;

  /**
   * @param expect higher or lower: the side of 1 the claim puts the ratio on
   * @param holmP the estimate's p-value after Holm's adjustment over the run's claims
   * @param margin M, e.g. 0.05 for ±5%
   */
  public static Verdict of(Stats.Estimate e, double holmP, String expect, double margin) {
    Kind kind = kindOf(e, holmP, expect, margin);
    return switch (kind) {
      case CONFIRMS, CONTRADICTS -> new Verdict(kind, kind.label(), null);
      case EQUIVALENT ->
          new Verdict(
              kind,
              "equivalent within \u00b1" + String.format(Locale.ROOT, "%.3g%%", margin * 100),
              null);
      default -> inconclusive(e, margin);
    };
  }

  /**
   * The verdict's kind alone, as {@link #of} decides it: what a caller that only counts kinds needs
   * (the calibration simulations call it tens of thousands of times), without the power
   * calculations behind an inconclusive verdict's "more blocks".
   */
  public static Kind kindOf(Stats.Estimate e, double holmP, String expect, double margin) {
    if (!e.hasInterval()) {
      return Kind.INCONCLUSIVE;
    }
    if (holmP <= ALPHA) {
      boolean higher = e.mean() > 0;
      return expect.equals("higher") == higher ? Kind.CONFIRMS : Kind.CONTRADICTS;
    }
    return Stats.equivalent(e, margin) ? Kind.EQUIVALENT : Kind.INCONCLUSIVE;
  }

  /** An inconclusive verdict with the further blocks that would likely settle it. */
  private static Verdict inconclusive(Stats.Estimate e, double margin) {
    if (!e.hasInterval()) {
      return new Verdict(Kind.INCONCLUSIVE, "inconclusive: fewer than 2 blocks, no interval", null);
    }
    double edge = Math.log1p(margin);
    if (Double.isNaN(e.sd())) {
      // unpaired (Welch) estimates: no block sd to extrapolate from
      return new Verdict(Kind.INCONCLUSIVE, "inconclusive", null);
    }
    double m = Math.abs(e.mean());
    int toSignificance =
        m > 0 ? Stats.blocksFor(m, e.sd(), ALPHA, SETTLE_POWER, MAX_BLOCKS) : MAX_BLOCKS;
    int toEquivalence =
        edge > m ? Stats.blocksFor(edge - m, e.sd(), ALPHA, SETTLE_POWER, MAX_BLOCKS) : MAX_BLOCKS;
    int need = Math.min(toSignificance, toEquivalence);
    int more = Math.max(1, need - e.n());
    String text =
        need >= MAX_BLOCKS
            ? "inconclusive (more than " + MAX_BLOCKS + " blocks would be needed)"
            : "inconclusive (about "
                + more
                + " more blocks would likely settle it: 80% power at the observed mean and sd)";
    return new Verdict(Kind.INCONCLUSIVE, text, more);
  }
}
