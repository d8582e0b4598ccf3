package dev.wg1bench.history.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hipparchus.distribution.discrete.BinomialDistribution;
import org.junit.jupiter.api.Test;

/** The exact conditional test's tail; the gate's use of it is {@code RegressionGateCountsTest}. */
class CountTestTest {

  @Test
  void theTailIsTheBinomialsWhereBothCanComputeIt() {
    for (int n : new int[] {1, 7, 40, 300}) {
      for (double share : new double[] {0.01, 1.0 / 6, 0.5, 0.9}) {
        BinomialDistribution b = new BinomialDistribution(n, share);
        for (int k = 1; k <= n; k += Math.max(1, n / 9)) {
          assertEquals(
              1 - b.cumulativeProbability(k - 1),
              CountTest.atLeast(k, n, share),
              1e-12,
              n + " " + k);
        }
      }
    }
  }
}
