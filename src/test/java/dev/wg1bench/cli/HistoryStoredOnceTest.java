package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.history.store.FreshDatabase;
import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.report.JsonReport;
import dev.wg1bench.report.ReportFixtures;
import dev.wg1bench.support.TestJava;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run is stored once whoever adds it and however often: added four times in a row, and added and
 * imported by four processes at once, into the folder and into PostgreSQL, the history holds one
 * copy and every other command says "already stored". The PostgreSQL store used to store a run
 * again on every add (its start time has nanoseconds, the column microseconds), and processes
 * adding at once both stored it in either store.
 */
class HistoryStoredOnceTest {
  @TempDir Path home;

  @BeforeEach
  void ownHome() {
    System.setProperty("wg1bench.home", home.toString());
  }

  @AfterEach
  void noHome() {
    System.clearProperty("wg1bench.home");
  }

  @Test
  void aResultAddedFourTimesIsStoredOnceInAFolder() throws Exception {
    addedFourTimes("");
  }

  @Test
  void aResultAddedFourTimesIsStoredOnceInPostgres() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      addedFourTimes(db.url);
      assertEquals(1, rows(db), "one row in wg1bench_history.run");
    }
  }

  @Test
  void processesAddingOneResultAtOnceStoreItOnceInAFolder() throws Exception {
    addedAtOnce("");
    try (var files = Files.list(home.resolve("history/runs"))) {
      assertEquals(1, files.count(), "one file under history/runs, no temporary one left");
    }
  }

  @Test
  void processesAddingOneResultAtOnceStoreItOnceInPostgres() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      addedAtOnce(db.url);
      assertEquals(1, rows(db), "one row in wg1bench_history.run");
    }
  }

  @Test
  void processesImportingOneOtavaFileAtOnceStoreEachRunOnce() throws Exception {
    try (FreshDatabase db = new FreshDatabase()) {
      for (String location : List.of("", db.url)) {
        Path csv = home.resolve("o.csv");
        Files.writeString(csv, HistoryOnceAndBranchTest.OTAVA_CSV);
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
        List<String> outs = together(List.of(args, args, args));
        int imported = 0;
        for (String o : outs) {
          java.util.regex.Matcher m =
              java.util.regex.Pattern.compile("imported (\\d) run").matcher(o);
          assertTrue(m.find(), o);
          imported += Integer.parseInt(m.group(1));
        }
        assertEquals(3, imported, "3 runs imported in all, the rest already stored: " + outs);
        try (HistoryStore h = HistoryStores.open(location, home)) {
          assertEquals(3, h.runs().size(), location);
        }
      }
      assertEquals(3, rows(db));
    }
  }

  private void addedFourTimes(String location) throws Exception {
    Path json = home.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    String first = null;
    for (int i = 0; i < 4; i++) {
      Cli c = Cli.run("history", "add", json.toString(), "--history", location);
      assertEquals(0, c.exit, c.toString());
      if (i == 0) {
        assertTrue(c.out.startsWith("history: stored run "), c.out);
        first = c.out.split(" ")[3];
      } else {
        assertTrue(
            c.out.matches(
                "history: run of \\S+ already stored as "
                    + java.util.regex.Pattern.quote(first)
                    + " in .*; not stored again\\n"),
            c.out);
      }
    }
    try (HistoryStore h = HistoryStores.open(location, home)) {
      List<StoredRun> runs = h.runs();
      assertEquals(1, runs.size(), runs.toString());
      assertEquals(first, runs.get(0).id());
    }
  }

  /** Three adds and an import of one result, four processes at once. */
  private void addedAtOnce(String location) throws Exception {
    Path json = home.resolve("run.json");
    JsonReport.write(ReportFixtures.run(), json);
    String[] add = {"history", "add", json.toString(), "--history", location};
    String[] imp = {
      "history", "import", json.toString(), "--format", "wg1bench", "--history", location
    };
    List<String> outs = together(List.of(add, add, add, imp));
    long stored = outs.stream().filter(o -> o.startsWith("history: stored run ")).count();
    long again = outs.stream().filter(o -> o.contains(" already stored as ")).count();
    assertEquals(1, stored, "one process stored the run: " + outs);
    assertEquals(3, again, "three said it is already stored: " + outs);
    try (HistoryStore h = HistoryStores.open(location, home)) {
      assertEquals(1, h.runs().size());
    }
  }

  /**
   * Runs each command in a JVM of its own, all started before any begins (a GO file), and returns
   * their outputs; each must exit 0.
   */
  private List<String> together(List<String[]> commands) throws Exception {
    Path go = Files.createTempDirectory(home, "go-").resolve("go");
    List<Process> procs = new ArrayList<>();
    try {
      for (String[] args : commands) {
        List<String> cmd = TestJava.command();
        cmd.addAll(
            List.of(
                "-Dwg1bench.home=" + home,
                "-cp",
                System.getProperty("java.class.path"),
                AddTogether.class.getName(),
                go.toString()));
        cmd.addAll(List.of(args));
        procs.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
      }
      List<BufferedReader> outs = new ArrayList<>();
      for (Process p : procs) {
        BufferedReader r =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("ready", r.readLine(), "the process started");
        outs.add(r);
      }
      Files.createFile(go);
      List<String> texts = new ArrayList<>();
      for (int i = 0; i < procs.size(); i++) {
        StringBuilder b = new StringBuilder();
        for (String l = outs.get(i).readLine(); l != null; l = outs.get(i).readLine()) {
          b.append(l).append('\n');
        }
        assertEquals(0, procs.get(i).waitFor(), b.toString());
        texts.add(b.toString());
      }
      return texts;
    } finally {
      procs.forEach(Process::destroyForcibly);
    }
  }

  private static int rows(FreshDatabase db) throws Exception {
    try (Connection c = db.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM wg1bench_history.run")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
