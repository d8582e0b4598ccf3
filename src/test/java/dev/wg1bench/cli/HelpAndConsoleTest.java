package dev.wg1bench.cli;

import static dev.wg1bench.cli.CliErrorsTest.assertOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a pgbench user reads first: help, list, the console summary, the first error. */
class HelpAndConsoleTest {
  @TempDir Path tmp;

  @Test
  void listColumnsLineUp() {
    Cli r = Cli.run("list");
    assertEquals(0, r.exit, r.toString());
    List<String> lines = r.out.lines().toList();
    int seed = lines.get(0).indexOf("seed");
    int description = lines.get(0).indexOf("description");
    for (String l : lines.subList(1, lines.size())) {
      assertEquals(' ', l.charAt(seed - 1), l);
      assertTrue(l.charAt(seed) != ' ' && l.charAt(description) != ' ', l);
      assertEquals(' ', l.charAt(description - 1), l);
    }
  }

  /** Each command's one-line summary in a "Commands:" list, wrapped lines joined. */
  private static List<String> summaries(String help) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String l : help.lines().toList()) {
      if (l.equals("Commands:")) {
        in = true;
      } else if (in && l.matches("  \\S.*")) {
        out.add(l.strip().replaceFirst("^\\S+\\s+", ""));
      } else if (in && l.startsWith("    ")) {
        out.set(out.size() - 1, out.get(out.size() - 1) + " " + l.strip());
      }
    }
    return out;
  }

  @Test
  void summariesAreWholeSentencesAndHelpHasNoWarning() {
    for (String[] cmd :
        new String[][] {
          {"--help"}, {"experiment", "--help"}, {"ssb", "--help"}, {"init", "--help"}
        }) {
      Cli r = Cli.run(cmd);
      assertEquals(0, r.exit, r.toString());
      List<String> s = summaries(r.out);
      assertFalse(s.isEmpty(), r.out);
      for (String line : s) {
        assertTrue(
            line.endsWith("."), "cut mid-sentence: '" + line + "' in " + String.join(" ", cmd));
      }
    }
    Cli advise = Cli.run("advise", "--help");
    assertFalse(advise.out.contains("WARN") || advise.err.contains("WARN"), advise.toString());
    assertTrue(advise.out.contains("Test each piece of advice in config/advice/"), advise.out);
    Cli init = Cli.run("init", "--help");
    // picocli wraps descriptions where the width says, so a phrase is looked for across lines
    String initText = init.out.replaceAll("\\s+", " ");
    assertTrue(initText.contains("Needs --target"), init.out);
    assertTrue(initText.contains("init, ssb and experiment need one"), init.out);
  }

  @Test
  void badKeyValueAndWorkloadTyposSayWhatWouldBeValid() {
    Cli r = Cli.run("--workload", "tpcb", "--set", "work_mem");
    assertOneLine(r, 2, "--set 'work_mem' must be NAME=VALUE, e.g. --set work_mem=VALUE");
    assertFalse(r.err.contains("option option"), r.err);
    assertOneLine(
        Cli.run("--workload", "tpbc"), 2, "'tpbc' is not a workload (did you mean tpcb or tpcc?)");
    assertOneLine(
        Cli.run("--workload", "selectonly"), 2, "(did you mean select_only?); valid: tpcb");
    Cli far = Cli.run("--workload", "zzzzzz");
    assertOneLine(far, 2, "'zzzzzz' is not a workload; valid:");
  }

  @Test
  void anUnwritableCsvIsRefusedBeforeTheRun() throws Exception {
    Path file = Files.writeString(tmp.resolve("plain"), "x");
    Cli r =
        Cli.run(
            "--workload",
            "select_only",
            "--target",
            TestServer.url(),
            "--csv",
            file.resolve("r.csv").toString(),
            "--output",
            tmp.resolve("r.json").toString());
    assertOneLine(r, 2, "--csv " + file.resolve("r.csv") + ": cannot write there");
    assertFalse(Files.exists(tmp.resolve("r.json")), "the run must not have started");
  }

  @Test
  void consoleSaysStddevConnectionTimeAndOneClient() throws Exception {
    PgbenchData.reset();
    Cli r =
        Cli.run(
            "--workload",
            "tpcb",
            "--target",
            TestServer.url(),
            "--clients",
            "1",
            "--duration",
            "1s",
            "--iterations",
            "1",
            "--warmup",
            "0",
            "--forks",
            "0",
            "--output",
            tmp.resolve("r.json").toString());
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.contains(": 1 client, warmup 0 ms"), r.out);
    assertTrue(
        r.out.contains("expected wall time: about 1 s (in this JVM: 0 ms warmup + 1 s measured)"),
        r.out);
    assertTrue(r.out.matches("(?s).*latency \\(ms\\): mean [0-9.]+, stddev [0-9.]+, p50.*"), r.out);
    assertTrue(
        r.out.matches(
            "(?s).*\ninitial connection time = [0-9.]+ ms \\(mean per client, connecting"
                + " together\\)\n.*"),
        r.out);
    // tpcb inserts one row per op: a rows/s line would repeat the tps
    assertFalse(r.out.contains("rows/s"), r.out);
  }
}
