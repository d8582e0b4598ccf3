package dev.wg1bench.cli;

import dev.wg1bench.support.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code java -jar target/wg1bench.jar ...} lines of README.md and of every page under docs/
 * ({@link #documented()}), and how the README tests run them in their JVM through the CLI's entry
 * point, so the examples stay true. Only what makes them quick and self-contained is changed: the
 * local server becomes the test server, durations half a second with no warmup and no fork (a
 * trial's length changes its figures, never the path the command takes), a replay's client warm-up
 * a second, row counts and repeats the smallest, SSB at SF 0.01 and pgbench at scale 2 (so a
 * comparison with the embedded server's default scale 1 is caught), outputs go to a temporary
 * directory, init gets --force (the test server's tables hold rows), and {@code [optional]} parts
 * of syntax lines are left out. Everything else, options and values alike, runs as printed.
 *
 * <p>The lines are split between five integration tests that Failsafe runs four at a time, each
 * with its own server ({@link #owner}): {@link ReadmeExamplesIT} (runs, init, reports of the README
 * and the pages outside docs/guides/), {@link ReadmeGuidesIT} (those of the guides), {@link
 * ReadmeAnalysesIT} (SSB and the experiments), {@link ReadmeAdviseIT} (advise) and {@link
 * ReadmeAdviseServerIT} (advise against a named server).
 */
final class ReadmeCommands {
  private final Path tmp;

  ReadmeCommands(Path tmp) {
    this.tmp = tmp;
    // a documented --history stores into the test's own home, never the user's ~/.wg1bench
    System.setProperty("wg1bench.home", tmp.resolve("home").toString());
  }

  private static final String JAR = "java -jar target/wg1bench.jar";

  /** Every trial's length: half a second, in which each of a trial's windows still gets ops. */
  private static final String TRIAL = "500ms";

  /** The pages whose command lines are run: README.md first, then docs/**.md in path order. */
  static List<Path> pages() throws IOException {
    List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
    try (java.util.stream.Stream<Path> s = Files.walk(Path.of("docs"))) {
      s.filter(f -> f.toString().endsWith(".md")).sorted().forEach(out::add);
    }
    return out;
  }

  /** A command line and the page it is printed on. */
  record Documented(Path page, String command) {}

  /**
   * Every page's command lines, in {@link #pages()} order and each page's own order: a report reads
   * the results of the runs before it, SSB's queries the data its init loaded on the same page.
   */
  static List<Documented> documented() throws IOException {
    List<Documented> out = new ArrayList<>();
    for (Path page : pages()) {
      for (String c : commands(Files.readString(page))) {
        out.add(new Documented(page, c));
      }
    }
    return out;
  }

  /** A page's command lines, backslash continuations joined, comments cut. */
  static List<String> commands(String readme) {
    List<String> out = new ArrayList<>();
    boolean inBlock = false;
    StringBuilder cur = null;
    for (String line : readme.split("\n", -1)) {
      if (line.startsWith("```")) {
        inBlock = !inBlock;
        continue;
      }
      if (!inBlock) {
        continue;
      }
      if (cur == null) {
        int at = line.indexOf(JAR);
        if (at < 0) {
          continue;
        }
        cur = new StringBuilder(line.substring(at + JAR.length()));
      } else {
        cur.append(' ').append(line.strip());
      }
      String s = cur.toString().stripTrailing();
      if (s.endsWith("\\")) {
        cur.setLength(0);
        cur.append(s, 0, s.length() - 1);
        continue;
      }
      int hash = s.indexOf(" #");
      out.add((hash >= 0 ? s.substring(0, hash) : s).strip().replaceAll("\\s+", " "));
      cur = null;
    }
    return out;
  }

  private static final Pattern LOCAL =
      Pattern.compile("jdbc:postgresql://127\\.0\\.0\\.1(:5432)?/test");

  /**
   * The replay examples' target: a database of the test's own on the test server, made again from
   * config/replay/example.sql before each example (their --fresh drops and re-creates it).
   */
  private static final Pattern APP_COPY =
      Pattern.compile("jdbc:postgresql://127\\.0\\.0\\.1(:5432)?/app_copy");

  private String appCopy;

  private String appCopy() throws IOException {
    try (java.sql.Connection c = TestServer.connect();
        java.sql.Statement st = c.createStatement()) {
      try (java.sql.ResultSet r = st.executeQuery("SELECT current_database()")) {
        r.next();
        appCopy = r.getString(1) + "_app_copy";
      }
      st.execute("DROP DATABASE IF EXISTS " + appCopy + " WITH (FORCE)");
      st.execute("CREATE DATABASE " + appCopy);
    } catch (java.sql.SQLException e) {
      throw new IOException(e);
    }
    String url = TestServer.url().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + appCopy);
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.Statement st = c.createStatement()) {
      st.execute(Files.readString(Path.of("config/replay/example.sql")));
    } catch (java.sql.SQLException e) {
      throw new IOException(e);
    }
    return url;
  }

  private void dropAppCopy() throws IOException {
    if (appCopy != null) {
      try (java.sql.Connection c = TestServer.connect();
          java.sql.Statement st = c.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS " + appCopy + " WITH (FORCE)");
      } catch (java.sql.SQLException e) {
        throw new IOException(e);
      }
    }
  }

  private int outputs;
  private final List<String> results = new ArrayList<>();

  /** The command as this test runs it (see the class comment). */
  List<String> adapt(String command) throws IOException {
    String s = command.replaceAll("\\[[^\\]]*\\](\\.\\.\\.)?", " ");
    s = LOCAL.matcher(s).replaceAll(Matcher.quoteReplacement(TestServer.url()));
    if (APP_COPY.matcher(s).find()) {
      s = APP_COPY.matcher(s).replaceAll(Matcher.quoteReplacement(appCopy()));
    }
    List<String> a = new ArrayList<>(Arrays.asList(s.strip().split("\\s+")));
    a.replaceAll(t -> t.equals("URL") ? TestServer.url() : t);
    String first = a.get(0);
    boolean ssb = first.equals("ssb") || (first.equals("init") && a.get(1).equals("ssb"));
    set(a, Map.of("-T", TRIAL, "--duration", TRIAL, "--repeat", "1", "--progress", "0.5"));
    // pgbench scale 2, not the embedded default 1: a comparison missing its --scale shows
    set(a, Map.of("--scale", ssb ? "0.01" : "2", "--rows", "20000"));
    Path out = tmp.resolve("out" + ++outputs);
    switch (first) {
      case "list" -> {}
      case "init" -> a.add("--force");
      case "report" -> {
        int glob = a.indexOf("results/*.json");
        if (glob >= 0) {
          a.remove(glob);
          a.addAll(glob, results);
        }
        // base against new: an earlier example's result read against itself
        a.replaceAll(t -> t.startsWith("results/") ? results.get(0) : t);
        a.replaceAll(t -> t.equals("report/") ? out.toString() : t);
      }
      case "diff" -> a.replaceAll(t -> t.startsWith("results/") ? results.get(0) : t);
      case "history" -> {
        // the pages' history lines share the test's own home's history (see the constructor),
        // in their order: runs stored, an import, then the exports and the report that read them;
        // the results they name are earlier examples', the files they write go to the test's
        // directory
        a.replaceAll(t -> t.startsWith("results/") ? results.get(0) : t);
        for (int i = 0; i + 1 < a.size(); i++) {
          if (a.get(i).equals("-o") || a.get(i).equals("--html")) {
            a.set(i + 1, out + "-" + Path.of(a.get(i + 1)).getFileName());
          }
        }
      }
      case "replay" -> {
        set(a, Map.of("--csv", out + ".csv", "--html", out + ".html"));
        a.addAll(List.of("-o", out + ".json"));
        if (a.stream().anyMatch(t -> t.startsWith("--fresh")) && !a.contains("--warmup")) {
          // the client's warm-up still runs, a second of it rather than the default thirty
          a.addAll(List.of("--warmup", "1s"));
        }
      }
      case "ssb" -> {
        a.replaceAll(t -> t.equals("DIR") ? out.toString() : t);
        if (a.get(1).equals("queries")) {
          a.addAll(List.of("-o", out + ".json"));
        }
      }
      case "experiment" -> {
        // the printed line leaves --rows to its default (up to two million rows, 4 of the 7
        // minutes this test took); 31000 is the smallest that fills logtable's 31 daily partitions
        if (!a.contains("--rows")) {
          a.addAll(List.of("--rows", "31000"));
        }
        if (!a.contains("--repeat")) {
          a.addAll(List.of("--repeat", "1"));
        }
        a.addAll(List.of("-o", out + ".json", "--plots", out.toString()));
      }
      case "advise" -> {
        // two blocks: the fewest its interval is computed from; a precision goal needs a pilot of
        // three and gets a budget of seconds, not the printed half hour
        String blocks = a.contains("--precision") ? "3" : "2";
        a.replaceAll(t -> t.equals("--blocks") ? "--repeat" : t);
        if (a.contains("--repeat")) {
          set(a, Map.of("--repeat", blocks));
        } else {
          a.addAll(List.of("--repeat", blocks));
        }
        set(a, Map.of("--budget", "10s"));
        a.addAll(List.of("-T", TRIAL, "--warmup", "0", "--forks", "0", "-o", out + ".json"));
      }
      default -> {
        // a run
        a.addAll(List.of("--warmup", "0", "--iterations", "1", "--forks", "0"));
        boolean perClient = a.contains("-t") || a.contains("--transactions");
        if (!a.contains("-T") && !a.contains("--duration") && !perClient) {
          a.addAll(List.of("-T", TRIAL));
        }
        if ((a.contains("-l") || a.contains("--log")) && !a.contains("--log-prefix")) {
          // pgbench's log files go to the working directory: here to the test's own
          a.addAll(List.of("--log-prefix", out + "-log"));
        }
        a.addAll(List.of("--output", out + ".json"));
        results.add(out + ".json");
      }
    }
    return a;
  }

  /** Replaces the value after each named option that is present. */
  private static void set(List<String> a, Map<String, String> values) {
    for (int i = 0; i + 1 < a.size(); i++) {
      String v = values.get(a.get(i));
      if (v != null) {
        a.set(i + 1, v);
      }
    }
  }

  /**
   * Runs the documented lines {@code which} selects, in {@link #documented()} order, and returns
   * those that failed, each with its page. A line printed word for word on two pages (the README's
   * and a guide's) runs once, where it is first printed.
   */
  List<String> runAll(Predicate<String> which) throws IOException {
    return runLines(d -> which.test(d.command()));
  }

  /**
   * As {@link #runAll(Predicate)}, selecting by page and line: a line printed on two pages runs
   * where it is first printed, so a group that does not take the first page skips it.
   */
  List<String> runLines(Predicate<Documented> which) throws IOException {
    List<String> failures = new ArrayList<>();
    boolean docker =
        System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"));
    Set<String> seen = new HashSet<>();
    for (Documented d : documented()) {
      String c = d.command();
      boolean first = seen.add(c);
      if (!which.test(d)) {
        continue;
      }
      if (!first) {
        // the same line printed on another page before: it runs, as printed, once
        System.err.printf("  same  %s (%s: as on an earlier page)%n", c, d.page());
        continue;
      }
      if (c.contains("container:") && !docker) {
        // a container target needs a Docker engine; the container tests skip without one too
        continue;
      }
      List<String> args = adapt(c);
      long t0 = System.nanoTime();
      Cli r = Cli.run(args.toArray(new String[0]));
      // where the suite's time goes, in the test's output file (not asserted)
      System.err.printf("%6.1f s  %s%n", (System.nanoTime() - t0) / 1e9, String.join(" ", args));
      if (r.exit != 0) {
        failures.add(d.page() + ": " + c + "\n  ran as: " + String.join(" ", args) + "\n  " + r);
        continue;
      }
      if (r.out.contains("hold different data")) {
        failures.add(
            d.page() + ": " + c + "\n  compares targets holding different data:\n  " + r.out);
      }
    }
    dropAppCopy();
    return failures;
  }

  /** SSB and the experiments: {@link ReadmeAnalysesIT}'s lines. */
  static boolean analysis(String command) {
    String first = command.split(" ", 2)[0];
    return first.equals("ssb")
        || first.equals("experiment")
        || command.startsWith("init ssb")
        || command.matches(".*--workload ssb\\S*.*");
  }

  /**
   * advise: the lines of {@link ReadmeAdviseIT} and {@link ReadmeAdviseServerIT}, the most of the
   * documented lines' time.
   */
  static boolean advice(String command) {
    return command.split(" ", 2)[0].equals("advise") || adviceOnANamedServer(command);
  }

  /**
   * Every claim against a named server, and the init before it (an arm that cannot run makes advise
   * exit 1, so the init runs where that advise runs): {@link ReadmeAdviseServerIT}'s lines, about
   * as long as all the other advise lines together.
   */
  static boolean adviceOnANamedServer(String command) {
    return command.startsWith("init --scale 10 --target local=")
        || (command.startsWith("advise ") && command.contains(" --target local="));
  }

  /** The runs, init, reports, diffs, history and replays. */
  static boolean example(String command) {
    return !analysis(command) && !advice(command);
  }

  /**
   * The guides' pages (docs/guides/), whose example lines are {@link ReadmeGuidesIT}'s; but the
   * advise guide's diff and report, which read the results of the runs before them (the README's),
   * stay with those runs.
   */
  static boolean onAGuide(Documented d) {
    return d.page().startsWith(Path.of("docs", "guides"))
        && !d.page().equals(Path.of("docs", "guides", "advise.md"));
  }

  /**
   * The README's init: the pgbench tables the examples' runs against the local server read, which
   * {@link ReadmeGuidesIT} loads too before its lines, since it runs in a JVM and server of its
   * own.
   */
  static boolean theReadmesInit(Documented d) {
    return d.page().equals(Path.of("README.md"))
        && d.command().startsWith("init --scale")
        && example(d.command());
  }

  /** The line's one README test, by name: every documented line has exactly one. */
  static String owner(Documented d) {
    String c = d.command();
    if (analysis(c)) {
      return "ReadmeAnalysesIT";
    }
    if (adviceOnANamedServer(c)) {
      return "ReadmeAdviseServerIT";
    }
    if (advice(c)) {
      return "ReadmeAdviseIT";
    }
    return onAGuide(d) ? "ReadmeGuidesIT" : "ReadmeExamplesIT";
  }
}
