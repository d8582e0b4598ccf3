package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.store.FreshDatabase;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A history shared by several branches and fed twice: {@code --branch} keeps pull requests out of
 * main's baseline in every reading command, a run added or imported again is stored once and the
 * command says so (folder and PostgreSQL alike), and series whose configurations cannot be rebuilt
 * are not re-measured with one pair of arms.
 */
class HistoryOnceAndBranchTest {
  @TempDir Path home;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  static final String OTAVA_CSV =
      """
      time,commit,tps
      2024.01.01 3:00:00 +0100,aaa0,1000
      2024.01.02 3:00:00 +0100,aaa1,1010
      2024.01.03 3:00:00 +0100,aaa2,990
      """;

  private static StoredRun run(int i, String branch, String config, double tps) {
    return new StoredRun(
        null,
        Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i),
        "run",
        Map.of("branch", branch, "commit", "c" + i),
        List.of(new StoredMetric(config, "tps", true, tps, Double.NaN, Double.NaN)));
  }

  /** Ten main runs around 1000, then a pull request's run at half that. */
  private String sharedHistory() throws Exception {
    Random r = new Random(7);
    try (HistoryStore h = HistoryStores.open("", home)) {
      for (int i = 0; i < 10; i++) {
        h.append(run(i, "main", "tpcb", 1000 * (1 + 0.01 * r.nextGaussian())));
      }
      h.append(run(10, "pr-7", "tpcb", 500));
    }
    return "";
  }

  @Test
  void theBranchKeepsPullRequestsOutOfMainsBaseline() throws Exception {
    String h = sharedHistory();
    Cli mixed = Cli.run("history", "check", "--history", h, "--series", "tpcb/tps");
    assertEquals(4, mixed.exit, "the pull request's last run against main's: " + mixed);
    Cli main = Cli.run("history", "check", "--history", h, "--branch", "main");
    assertEquals(0, main.exit, main.toString());
    assertTrue(main.out.contains("history check: 1 series, 0 regressed"), main.out);
    Cli where = Cli.run("history", "analyze", "--history", h, "--where", "branch=main");
    assertEquals(0, where.exit, where.toString());
    assertTrue(where.out.contains("tpcb/tps (10 runs)"), where.out);
    Path csv = home.resolve("main.csv");
    Cli export =
        Cli.run("history", "export", "--format", "csv", "--branch", "main", "-o", csv.toString());
    assertEquals(0, export.exit, export.toString());
    assertEquals(1 + 10, Files.readAllLines(csv).size(), "a header and main's 10 runs");
    Path html = home.resolve("report");
    Cli report = Cli.run("history", "report", "--html", html.toString(), "--branch", "pr-7");
    assertEquals(0, report.exit, report.toString());
    Cli none = Cli.run("history", "analyze", "--history", h, "--branch", "nowhere");
    assertEquals(2, none.exit, none.toString());
    assertEquals(1, none.err.strip().lines().count(), none.err);
    assertTrue(none.err.contains("branch=nowhere"), none.err);
  }

  @Test
  void anOtavaFileImportedTwiceIsStoredOnceInAFolder() throws Exception {
    importedTwice("");
  }

  @Test
  void anOtavaFileImportedTwiceIsStoredOnceInPostgres() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      importedTwice(db.url);
    }
  }

  private void importedTwice(String location) throws Exception {
    Path csv = home.resolve("o.csv");
    Files.writeString(csv, OTAVA_CSV);
    String[] args = {
      "history",
      "import",
      csv.toString(),
      "--format",
      "otava-csv",
      "--series",
      "o",
      "--history",
      location
    };
    Cli first = Cli.run(args);
    assertEquals(0, first.exit, first.toString());
    assertTrue(first.out.startsWith("imported 3 runs from"), first.out);
    Cli again = Cli.run(args);
    assertEquals(0, again.exit, again.toString());
    assertTrue(
        again.out.startsWith("imported 0 runs (3 of the file's 3 already stored: not again)"),
        again.out);
    try (HistoryStore h = HistoryStores.open(location, home)) {
      assertEquals(3, h.runs().size());
    }
  }

  @Test
  void aResultAddedTwiceIsStoredOnce() throws Exception {
    Path json = home.resolve("run.json");
    dev.wg1bench.report.JsonReport.write(dev.wg1bench.report.ReportFixtures.run(), json);
    Cli first = Cli.run("history", "add", json.toString());
    assertEquals(0, first.exit, first.toString());
    assertTrue(first.out.contains("history: stored run "), first.out);
    Cli again = Cli.run("history", "add", json.toString(), "--attr", "build=2");
    assertEquals(0, again.exit, again.toString());
    assertTrue(
        again.out.matches(
            "(?s)history: run of \\S+ already stored as \\S+ in .*; not stored again\\n"),
        again.out);
    try (HistoryStore h = HistoryStores.open("", home)) {
      assertEquals(1, h.runs().size());
    }
  }

  @Test
  void seriesOfConfigurationsThatCannotBeRebuiltAreNamedAndKeepTheHistorysOutcome()
      throws Exception {
    Random r = new Random(3);
    try (HistoryStore h = HistoryStores.open("", home)) {
      for (int i = 0; i < 10; i++) {
        double f = i == 9 ? 0.5 : 1;
        h.append(
            new StoredRun(
                null,
                Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i),
                "run",
                Map.of(),
                List.of(
                    new StoredMetric(
                        "tpcb",
                        "tps",
                        true,
                        f * 1000 * (1 + 0.01 * r.nextGaussian()),
                        Double.NaN,
                        Double.NaN),
                    new StoredMetric(
                        "select_only",
                        "tps",
                        true,
                        f * 5000 * (1 + 0.01 * r.nextGaussian()),
                        Double.NaN,
                        Double.NaN))));
      }
    }
    Cli c =
        Cli.run(
            "history",
            "check",
            "--confirm",
            "regressions",
            "--confirm-baseline",
            "--workload select_only",
            "--confirm-candidate",
            "--workload select_only --clients 2");
    // neither name is one wg1bench writes (WORKLOAD KEY=VALUE ... @TARGET): neither configuration
    // can be rebuilt, so one pair of arms does not re-measure both; each is named, nothing runs
    assertEquals(HistoryCheckCommand.REGRESSION, c.exit, c.toString());
    List<String> notes = c.err.strip().lines().toList();
    assertEquals(2, notes.size(), c.err);
    for (String config : List.of("select_only", "tpcb")) {
      assertTrue(
          notes.contains(
              "wg1bench: note: series "
                  + config
                  + "/tps is not re-measured: its configuration '"
                  + config
                  + "' cannot be rebuilt from the history (not a configuration wg1bench wrote"
                  + " (WORKLOAD KEY=VALUE ... @TARGET)), and one pair of arms re-measures one"
                  + " configuration; the history's outcome stands"),
          c.err);
    }
    assertTrue(c.out.contains("REGRESSION tpcb/tps: "), c.out);
    assertFalse(c.out.contains("re-measured on this machine"), c.out);
    assertFalse(c.err.contains("Exception"), c.err);
  }
}
