package dev.wg1bench.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlocksTest {
  /**
   * Blocks come in pairs of opposite orders, and successive pairs are independent coins: over many
   * seeds, the number of changes between pairs' first orders in 20 pairs has the binomial(19, 1/2)
   * mean 9.5 and variance 4.75.
   */
  @Test
  void pairsHaveOppositeOrdersAndSuccessivePairsAreIndependent() {
    int seeds = 5000;
    double sum = 0;
    double sq = 0;
    for (long seed = 0; seed < seeds; seed++) {
      int changes = 0;
      boolean prev = Blocks.treatmentFirst(seed * 7919, "aa", "local", 1);
      for (int pair = 1; pair <= 20; pair++) {
        boolean c = Blocks.treatmentFirst(seed * 7919, "aa", "local", 2 * pair - 1);
        assertNotEquals(c, Blocks.treatmentFirst(seed * 7919, "aa", "local", 2 * pair), "a pair");
        changes += pair > 1 && c != prev ? 1 : 0;
        prev = c;
      }
      sum += changes;
      sq += changes * changes;
    }
    double mean = sum / seeds;
    double var = sq / seeds - mean * mean;
    assertEquals(9.5, mean, 0.15);
    assertEquals(4.75, var, 0.4);
  }

  /** Blocks: one B and one T each, order fair, independent across claims, fixed by the seed. */
  @Test
  void blockOrdersAreRandomPerClaimAndReproducible() {
    int tFirst = 0;
    Set<String> patterns = new HashSet<>();
    for (String claim : new String[] {"a", "b", "c", "d", "e", "f", "g", "h", "i"}) {
      StringBuilder s = new StringBuilder();
      for (int b = 1; b <= 12; b++) {
        String o = Blocks.order(17, claim, "local", b);
        assertTrue(o.equals("TB") || o.equals("BT"));
        assertEquals(o, Blocks.order(17, claim, "local", b), "reproducible");
        tFirst += o.equals("TB") ? 1 : 0;
        s.append(o);
      }
      patterns.add(s.toString());
    }
    assertEquals(9, patterns.size(), "every claim gets its own orders: " + patterns);
    assertTrue(tFirst > 108 * 0.35 && tFirst < 108 * 0.65, tFirst + " of 108 treatment-first");
    StringBuilder other = new StringBuilder();
    StringBuilder same = new StringBuilder();
    for (int b = 1; b <= 40; b++) {
      other.append(Blocks.order(18, "a", "local", b));
      same.append(Blocks.order(17, "a", "local", b));
    }
    assertNotEquals(same.toString(), other.toString(), "another seed, other orders");
    assertFalse(same.toString().matches("(TBBT)+|(BTTB)+"), "not one pattern repeated");
  }
}
