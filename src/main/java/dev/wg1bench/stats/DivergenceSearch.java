package dev.wg1bench.stats;

/**
 * The best split of a segment by the energy divergence of Matteson and James (α = 1): over every
 * {@code from < τ < κ <= to}, the τ maximizing Q̂(values[from, τ), values[τ, κ)), where
 *
 * <pre>
 * Q̂(X, Y) = 2/(n+m) Σ|X_i − Y_j| − 2m/((n+m)(n−1)) Σ_{i&lt;k}|X_i − X_k| − 2n/((n+m)(m−1)) Σ_{j&lt;k}|Y_j − Y_k|
 * </pre>
 *
 * <p>It is computed with the running sums of Otava's calculator (docs/MATH.md there), and the sums
 * are added in the order numpy adds them, so that two splits equal in exact arithmetic tie here as
 * they tie there, and the first of them (row by row: smallest τ, then smallest κ) wins, as numpy's
 * argmax picks it. Series with flat segments (synthetic steps, counters) tie often.
 */
final class DivergenceSearch {

  /** A split: the index starting the new segment, and its Q̂. */
  record Candidate(int index, double q) {}

  private final double[] x;
  private final int minSegment;

  /** d(r, c+1) summed over r = 0..c (numpy's triu.sum(axis=0)). */
  private final double[] v;

  /** h[r][c] = Σ_{j=r+1..c+1} d(r, j), in that order (numpy's triu.cumsum(axis=1)). */
  private final double[][] h;

  DivergenceSearch(double[] values, int minSegment) {
    this.x = values;
    this.minSegment = minSegment;
    int n = values.length;
    v = new double[Math.max(0, n - 1)];
    h = new double[Math.max(0, n - 1)][];
    for (int r = 0; r < n - 1; r++) {
      double[] row = new double[n - 1];
      double acc = 0;
      for (int c = r; c < n - 1; c++) {
        acc += d(r, c + 1);
        row[c] = acc;
      }
      h[r] = row;
    }
    for (int c = 0; c < n - 1; c++) {
      double acc = 0;
      for (int r = 0; r <= c; r++) {
        acc += d(r, c + 1);
      }
      v[c] = acc;
    }
  }

  private double d(int i, int j) {
    return Math.abs(x[i] - x[j]);
  }

  /**
   * The best split of {@code values[start, end)} leaving at least {@code minSegment} points in X
   * and in Y, or null when the segment is too short for one.
   */
  Candidate best(int start, int end) {
    int n = end - 1 - start;
    if (n < 1) {
      return null;
    }
    // cv[k]: running sum over k of V(start, start+1+k), the distances of a point to those before it
    double[] cv = new double[n];
    double run = 0;
    for (int k = 0; k < n; k++) {
      double s = 0;
      for (int r = 0; r < start; r++) {
        s += d(r, start + k + 1);
      }
      run += v[start + k] - s;
      cv[k] = run;
    }
    // f[i][j]: Σ_{a=i..n-2} H(start+a+1, start+j), added from the bottom up (for C)
    double[][] f = new double[n][];
    double[] below = new double[n];
    for (int i = n - 2; i >= 0; i--) {
      double[] hr = h[start + i + 1];
      double[] row = new double[n];
      for (int j = 1; j < n; j++) {
        below[j] = i == n - 2 ? hr[start + j] : below[j] + hr[start + j];
        row[j] = below[j];
      }
      f[i] = row;
    }
    double[] ch = new double[n];
    Candidate best = null;
    for (int i = 0; i < n; i++) {
      double[] hr = h[start + i];
      for (int j = 0; j < n; j++) {
        ch[j] = i == 0 ? hr[start + j] : ch[j] + hr[start + j];
      }
      int tauLen = i + 1;
      if (tauLen < minSegment) {
        continue;
      }
      for (int j = i; j < n; j++) {
        if (j + 1 - i < minSegment) {
          continue;
        }
        double a = (2.0 / (j + 2)) * (ch[j] - (i >= 1 ? cv[i - 1] : 0.0));
        double b = i >= 1 ? ((double) (2 * (j + 1 - i)) / ((j + 2) * i)) * cv[i - 1] : 0.0;
        double c =
            j > i && i <= n - 2 ? ((double) (2 * (i + 1)) / ((j + 2) * (j - i))) * f[i][j] : 0.0;
        double q = a - b - c;
        if (best == null || q > best.q()) {
          best = new Candidate(start + i + 1, q);
        }
      }
    }
    return best;
  }
}
