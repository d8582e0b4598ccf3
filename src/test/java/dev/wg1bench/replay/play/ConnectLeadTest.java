package dev.wg1bench.replay.play;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The lead a connection is opened with: the initial one until a connect is timed, then the longest
 * of the last {@link ConnectLead#KEPT} connects, never over the bound; the longest used is kept for
 * the report.
 */
class ConnectLeadTest {
  private static final long MS = 1_000_000L;

  @Test
  void theInitialLeadUntilAConnectIsTimedThenTheLongestOfTheLastOnes() {
    ConnectLead lead = new ConnectLead();
    assertEquals(ConnectLead.INITIAL_NANOS, lead.next());
    lead.took(7 * MS);
    assertEquals(7 * MS, lead.next(), "one connect timed: its time, not the initial guess");
    lead.took(12 * MS);
    lead.took(3 * MS);
    assertEquals(12 * MS, lead.next());
    for (int i = 0; i < ConnectLead.KEPT; i++) {
      lead.took(4 * MS);
    }
    assertEquals(4 * MS, lead.next(), "a slow connect is forgotten after KEPT newer ones");
    assertEquals(ConnectLead.INITIAL_NANOS, lead.longestUsed(), "the longest lead given, kept");
  }

  @Test
  void aConnectThatTookLongOpensTheRestNoEarlierThanTheBound() {
    ConnectLead lead = new ConnectLead();
    lead.took(5_000 * MS);
    assertEquals(ConnectLead.MAX_NANOS, lead.next());
    assertEquals(ConnectLead.MAX_NANOS, lead.longestUsed());
    lead.took(-1);
    assertEquals(ConnectLead.MAX_NANOS, lead.next(), "a negative time counts as none");
  }
}
