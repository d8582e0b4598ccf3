package dev.wg1bench.replay.play;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The compilers' queue as HotSpot's {@code Compiler.queue} prints it (texts taken from Java 17):
 * idle only when nothing is compiling and every queue is empty.
 */
class JitQuietTest {
  @Test
  void idleWhenNothingCompilesAndEveryQueueIsEmpty() {
    assertTrue(
        JitQuiet.idle(
            "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n"));
    assertTrue(
        JitQuiet.idle("Current compiles: \n\nC1 compile queue:\nEmpty\n\n"),
        "C1 alone (-XX:TieredStopAtLevel=1, as the tests run)");
  }

  @Test
  void notIdleWhileAMethodIsQueued() {
    assertFalse(
        JitQuiet.idle(
            "Current compiles: \n\nC1 compile queue:\n"
                + "1620    b  3       java.lang.Long::stringSize (55 bytes)\n\n"
                + "C2 compile queue:\nEmpty\n\n"));
    assertFalse(
        JitQuiet.idle(
            "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\n"
                + "3832       4       dev.wg1bench.replay.play.Schedule::<init> (775 bytes)\n\n"));
  }

  @Test
  void notIdleWhileACompilerThreadCompiles() {
    assertFalse(
        JitQuiet.idle(
            "Current compiles: \nC2 CompilerThread0  3832       4       "
                + "dev.wg1bench.replay.play.Schedule::<init> (775 bytes)\n\n"
                + "C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n"));
  }

  @Test
  void aTextItCannotReadIsNotIdle() {
    assertFalse(JitQuiet.idle("C2 compile queue:"), "a header with nothing after it");
  }

  @Test
  void hotSpotsQueueIsReadThroughItsDiagnosticCommand() throws Exception {
    assumeTrue(
        ManagementFactory.getPlatformMBeanServer()
            .isRegistered(new ObjectName("com.sun.management:type=DiagnosticCommand")),
        "a JVM with HotSpot's diagnostic commands");
    String queue = JitQuiet.queue();
    assertNotNull(queue, "Compiler.queue read through the DiagnosticCommand MBean");
    assertTrue(queue.contains("Current compiles:") && queue.contains("compile queue:"), queue);
  }

  private static final String BUSY =
      "Current compiles: \n\nC1 compile queue:\n"
          + "1620    b  3       java.lang.Long::stringSize (55 bytes)\n\n";
  private static final String IDLE = "Current compiles: \n\nC1 compile queue:\nEmpty\n\n";

  @Test
  void waitsUntilTheQueueEmpties() throws Exception {
    int[] reads = {0};
    assertTrue(
        JitQuiet.await(() -> false, () -> ++reads[0] < 3 ? BUSY : IDLE, 60_000),
        "the queue emptied before the bound");
    assertEquals(3, reads[0], "read until it was empty, not after");
  }

  @Test
  void saysWhenTheBoundRanOutWithCompilesQueued() throws Exception {
    assertFalse(JitQuiet.await(() -> false, () -> BUSY, 30), "never empty: the bound ran out");
  }

  @Test
  void aStopOrAnUnreadableQueueEndsTheWaitAtOnce() throws Exception {
    int[] reads = {0};
    assertTrue(JitQuiet.await(() -> true, () -> BUSY + reads[0]++, 60_000), "told to stop");
    assertEquals(0, reads[0], "nothing read once stopped");
    assertTrue(JitQuiet.await(() -> false, () -> null, 60_000), "no Compiler.queue: no wait");
  }
}
