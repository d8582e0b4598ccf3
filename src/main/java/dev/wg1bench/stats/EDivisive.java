package dev.wg1bench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Change points of a series by E-Divisive means with a t-test, windowed, weak change points
 * re-checked: the method of the Hunter paper (Fleming et al., arXiv 2301.03034) as Apache Otava
 * implements it, so that on the same series and settings it finds the same change points. Pure and
 * deterministic: no randomness, no I/O.
 *
 * <p>Two passes. <b>Split</b>: windows of {@code window} points, each starting half a window (or at
 * the last change point found) after the previous one; in each window the divisive search (see
 * {@link DivergenceSearch}) splits at the point maximizing the energy divergence Q̂ (α = 1) and
 * keeps the split while the t-test between its two sides gives p at most a relaxed level (10 × p
 * when p &lt; 0.05, 2 × p below 0.5); the union of every window's points are the "weak" change
 * points. <b>Merge</b>: each weak point is tested between its neighbours over the whole series;
 * then, repeatedly, the point with the largest p is dropped while that p is not below {@code p},
 * and once all are, the one with the smallest magnitude is dropped while it is not above {@code
 * magnitude}. After a drop Otava recomputes the statistics of the point that took the dropped one's
 * place and of the one after it (not of the one before); this class does the same, since matching
 * its answers is the point.
 *
 * <p>{@code minSegment} (not in Otava; 1 reproduces it) keeps every segment at least that long: the
 * search only considers splits leaving that many points on each side, and the merge drops first,
 * weakest p first, any point that leaves a shorter segment beside it, so that a single spike is not
 * two change points.
 */
public final class EDivisive {
  private EDivisive() {}

  /**
   * The settings.
   *
   * @param window points per window of the split pass, at least 2 (Otava's default 50)
   * @param p the significance level (Otava's default 0.001)
   * @param magnitude the smallest relative change kept (Otava's default 0)
   * @param minSegment the fewest points of a segment (1 as in Otava)
   */
  public record Settings(int window, double p, double magnitude, int minSegment) {
    public static final Settings OTAVA = new Settings(50, 0.001, 0.0, 1);

    public Settings {
      if (window < 2) {
        throw new IllegalArgumentException("window must be at least 2, was " + window);
      }
      if (!(p > 0 && p < 1)) {
        throw new IllegalArgumentException("p must be in (0, 1), was " + p);
      }
      if (!(magnitude >= 0)) {
        throw new IllegalArgumentException("magnitude must be at least 0, was " + magnitude);
      }
      if (minSegment < 1) {
        throw new IllegalArgumentException("minSegment must be at least 1, was " + minSegment);
      }
    }

    /** The level of the split pass, as Otava relaxes it. */
    double firstPassP() {
      return p < 0.05 ? p * 10 : (p < 0.5 ? p * 2 : p);
    }
  }

  /**
   * A change point: the index of the first point of the new segment and the test between the
   * segments beside it, as the merge pass last computed it.
   */
  public record ChangePoint(int index, SegmentSignificance.Outcome test) {}

  /** The change points of {@code values}, in order of index. */
  public static List<ChangePoint> changePoints(double[] values, Settings s) {
    return changePoints(values, null, s);
  }

  /**
   * The change points of {@code values}, in order of index.
   *
   * @param noiseVariance each point's own variance (NaN where it has none), a floor under each
   *     segment's variance in the t-test (see {@link SegmentSignificance}); null to test as Otava
   *     does
   */
  public static List<ChangePoint> changePoints(
      double[] values, double[] noiseVariance, Settings s) {
    List<ChangePoint> weak = split(values, noiseVariance, s);
    return merge(weak, values, noiseVariance, s);
  }

  /** The weak change points, each tested between its neighbours over the whole series. */
  static List<ChangePoint> split(double[] values, double[] noise, Settings s) {
    int n = values.length;
    int step = s.window() / 2;
    List<Integer> found = new ArrayList<>();
    int start = 0;
    while (start < n) {
      int end = Math.min(start + s.window(), n);
      List<Integer> inWindow = detect(values, noise, start, end, s.firstPassP(), s.minSegment());
      int last = inWindow.isEmpty() ? 0 : inWindow.get(inWindow.size() - 1);
      start = Math.max(last, start + step);
      for (int i : inWindow) {
        if (!found.contains(i)) {
          found.add(i);
        }
      }
    }
    found.sort(null);
    List<ChangePoint> out = new ArrayList<>();
    for (int k = 0; k < found.size(); k++) {
      out.add(tested(values, noise, found, k));
    }
    return out;
  }

  /**
   * The divisive search in {@code values[start, end)}: split the segment whose best split has the
   * largest Q̂ while that split is significant at {@code level}; indexes in the whole series.
   */
  static List<Integer> detect(
      double[] values, double[] noise, int start, int end, double level, int minSegment) {
    double[] w = Arrays.copyOfRange(values, start, end);
    double[] wn = noise == null ? null : Arrays.copyOfRange(noise, start, end);
    DivergenceSearch search = new DivergenceSearch(w, minSegment);
    List<Integer> cps = new ArrayList<>();
    while (true) {
      int best = -1;
      double bestQ = Double.NEGATIVE_INFINITY;
      int bestFrom = 0;
      int bestTo = 0;
      for (int k = 0; k <= cps.size(); k++) {
        int from = k == 0 ? 0 : cps.get(k - 1);
        int to = k == cps.size() ? w.length : cps.get(k);
        if (to - from < 2) {
          continue;
        }
        DivergenceSearch.Candidate c = search.best(from, to);
        // first of equals wins, as Python's max does
        if (c != null && (best < 0 || c.q() > bestQ)) {
          best = c.index();
          bestQ = c.q();
          bestFrom = from;
          bestTo = to;
        }
      }
      if (best < 0) {
        break;
      }
      SegmentSignificance.Outcome t = SegmentSignificance.compare(w, wn, bestFrom, best, bestTo);
      if (t.p() <= level) {
        cps.add(best);
        cps.sort(null);
      } else {
        break;
      }
    }
    List<Integer> out = new ArrayList<>();
    for (int c : cps) {
      out.add(c + start);
    }
    return out;
  }

  /** The {@code k}-th of the sorted indexes tested between its neighbours. */
  private static ChangePoint tested(double[] values, double[] noise, List<Integer> idx, int k) {
    int from = k == 0 ? 0 : idx.get(k - 1);
    int to = k == idx.size() - 1 ? values.length : idx.get(k + 1);
    return new ChangePoint(
        idx.get(k), SegmentSignificance.compare(values, noise, from, idx.get(k), to));
  }

  /** The merge pass over the weak change points. */
  static List<ChangePoint> merge(
      List<ChangePoint> weak, double[] values, double[] noise, Settings s) {
    List<ChangePoint> cps = new ArrayList<>(weak);
    while (!cps.isEmpty()) {
      int weakest = tooShortWithLargestP(cps, values.length, s.minSegment());
      if (weakest < 0) {
        weakest = largestP(cps);
        if (cps.get(weakest).test().p() < s.p()) {
          weakest = smallestMagnitude(cps);
          if (cps.get(weakest).test().magnitude() > s.magnitude()) {
            return cps;
          }
        }
      }
      cps.remove(weakest);
      List<Integer> idx = cps.stream().map(ChangePoint::index).toList();
      for (int k = weakest; k <= weakest + 1 && k < cps.size(); k++) {
        cps.set(k, tested(values, noise, idx, k));
      }
    }
    return cps;
  }

  private static int largestP(List<ChangePoint> cps) {
    int at = 0;
    for (int k = 1; k < cps.size(); k++) {
      if (cps.get(k).test().p() > cps.get(at).test().p()) {
        at = k;
      }
    }
    return at;
  }

  private static int smallestMagnitude(List<ChangePoint> cps) {
    int at = 0;
    for (int k = 1; k < cps.size(); k++) {
      if (cps.get(k).test().magnitude() < cps.get(at).test().magnitude()) {
        at = k;
      }
    }
    return at;
  }

  /** Among the points with a segment shorter than {@code min} beside them, the largest p; or -1. */
  private static int tooShortWithLargestP(List<ChangePoint> cps, int n, int min) {
    int at = -1;
    for (int k = 0; k < cps.size(); k++) {
      int before = cps.get(k).index() - (k == 0 ? 0 : cps.get(k - 1).index());
      int after = (k == cps.size() - 1 ? n : cps.get(k + 1).index()) - cps.get(k).index();
      if ((before < min || after < min)
          && (at < 0 || cps.get(k).test().p() > cps.get(at).test().p())) {
        at = k;
      }
    }
    return at;
  }
}
