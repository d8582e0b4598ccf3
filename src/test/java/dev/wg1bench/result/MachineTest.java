package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The machine record says how the kernel shares CPU, as the kernel itself says it. */
class MachineTest {
  @Test
  void theSchedulerIsWhatTheKernelSays() throws Exception {
    Path autogroup = Path.of("/proc/sys/kernel/sched_autogroup_enabled");
    String scheduler = Machine.current().scheduler();
    if (!Files.isReadable(autogroup)) {
      assertNull(scheduler);
      return;
    }
    String value = Files.readString(autogroup).strip();
    assertEquals(value.equals("0") ? "autogroup off" : "autogroup on", scheduler);
  }
}
