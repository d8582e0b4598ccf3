package dev.wg1bench.replay.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A deadlock error's DETAIL, as PostgreSQL writes it, read into its cycle. */
class LoggedDeadlockTest {
  private static final Instant AT = Instant.parse("2026-12-07T11:55:34.791Z");

  @Test
  void theCycleNamesTheOtherBackendsAndThoseQueuedBehindTheVictim() {
    // the victim 18705 (0x4911) waits for 18707's transaction; 18706 waits for the row's tuple
    // lock, which the victim holds as the first in its queue: 18706 asked after the victim did
    String detail =
        "Process 18705 waits for ShareLock on transaction 394584; blocked by process 18707.\n"
            + "Process 18707 waits for ShareLock on transaction 394583; blocked by process 18706.\n"
            + "Process 18706 waits for ExclusiveLock on tuple (1646,13) of relation 16391 of"
            + " database 16463; blocked by process 18705.\n"
            + "Process 18705: UPDATE pgbench_accounts SET abalance = 1 WHERE aid = 7;\n"
            + "Process 18707: UPDATE pgbench_accounts SET abalance = 2 WHERE aid = 14;\n"
            + "Process 18706: UPDATE pgbench_accounts SET abalance = 3 WHERE aid = 7;";
    LoggedDeadlock d = LoggedDeadlock.of("6b169eb4.4911", AT, detail);
    assertEquals(List.of(18707L, 18706L), d.others());
    assertEquals(List.of(18706L), d.behind());
  }

  @Test
  void aDetailThatNamesNoOtherBackendIsNoCycle() {
    assertNull(LoggedDeadlock.of("6b169eb4.4911", AT, null));
    assertNull(LoggedDeadlock.of("6b169eb4.4911", AT, "while updating tuple (1,2)"));
  }

  @Test
  void aSessionIdCarriesItsBackendsPid() {
    assertEquals(0x14b9L, LoggedDeadlock.pid("6b169eb4.14b9"));
    assertNull(LoggedDeadlock.pid("no-dot"));
    assertNull(LoggedDeadlock.pid("6b169eb4.xyz"));
  }
}
