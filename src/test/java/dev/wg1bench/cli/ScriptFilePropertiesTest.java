package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.script.Script;
import dev.wg1bench.script.ScriptException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/**
 * A script file of arbitrary bytes, as {@code --script} reads it (issue 56): decoded and parsed, or
 * refused in one line (exit 2), whatever the bytes: binary, not UTF-8, NULs, cut sequences.
 */
class ScriptFilePropertiesTest {
  private static final Set<String> PREDEFINED =
      Set.of("scale", "client_id", "nclients", "default_seed", "random_seed");

  private static void readsOrRefusesInOneLine(byte[] bytes) throws Exception {
    Path dir = Files.createTempDirectory("wg1bench-scriptprop-");
    Path f = dir.resolve("fuzz.sql");
    try {
      Files.write(f, bytes);
      ScriptSource s;
      try {
        s = PlanFactory.readScript(f.toString());
      } catch (UsageException e) {
        assertTrue(e.getMessage().contains("is not UTF-8 text"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return;
      }
      try {
        Script.parse(s.name(), s.text()).compile(PREDEFINED);
      } catch (ScriptException e) {
        assertTrue(e.getMessage().startsWith("fuzz.sql:"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
      }
    } finally {
      Files.deleteIfExists(f);
      Files.deleteIfExists(dir);
    }
  }

  @Property(tries = 200)
  void arbitraryBytes(@ForAll @Size(max = 300) byte[] bytes) throws Exception {
    readsOrRefusesInOneLine(bytes);
  }

  /** A valid script with one byte of the fuzzer's in it, anywhere. */
  @Property(tries = 200)
  void aValidScriptWithAByteChanged(@ForAll byte b, @ForAll int where) throws Exception {
    byte[] valid =
        "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
            .getBytes(StandardCharsets.UTF_8);
    valid[Math.floorMod(where, valid.length)] = b;
    readsOrRefusesInOneLine(valid);
  }
}
