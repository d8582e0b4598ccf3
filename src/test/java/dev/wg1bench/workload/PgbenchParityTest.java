package dev.wg1bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same scripts through pgbench (when it is on PATH) and through wg1bench's script engine,
 * against the test server, with the same seed, defines and query mode: every {@code debug()} value
 * must be equal, in order, and the op must succeed or fail as pgbench's client does (pgbench exits
 * 0 when it ran, 2 when the client aborted). The expected values are pgbench's own output, read at
 * test time, never written down here.
 */
class PgbenchParityTest {
  private static final long SEED = 5432;
  private static final Pattern PGBENCH_DEBUG =
      Pattern.compile("^debug\\(script=\\d+,command=\\d+\\): (.*)$");
  private static final Pattern OUR_DEBUG = Pattern.compile("^debug\\([^)]*\\): (.*)$");

  @TempDir Path tmp;

  /** name, script. */
  static Stream<Arguments> scripts() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(
        "seeded random draws, default_seed, permute, hash",
        "\\set a debug(random(10, 19))\n"
            + "\\set b debug(random_exponential(100, 199, 10.0))\n"
            + "\\set c debug(random_gaussian(1000, 1999, 10.0))\n"
            + "\\set d debug(random_zipfian(1, 9, 1.3))\n"
            + "\\set e debug(:default_seed)\n"
            + "\\set f debug(permute(3, 10))\n"
            + "\\set f debug(permute(-7, 1000003, 17))\n"
            + "\\set g debug(hash(5))\n"
            + "\\set g debug(hash_fnv1a(5))\n"
            + "\\set g debug(hash_murmur2(-5, 99))\n"
            + "\\set r debug(:random_seed)\n"
            + "\\set u debug(random(-9223372036854775807, 9223372036854775806))\n"
            + "\\set u debug(random(1, 1))\n"
            + "\\set z debug(random_zipfian(1, 1000000, 2.5))\n"
            + "\\set z debug(random_exponential(1, 1000000, 0.5))\n"
            + "\\set z debug(random_gaussian(1, 1000000, 2.0))\n");
    s.put(
        "integer and double arithmetic",
        "\\set a debug(7 / 2)\n"
            + "\\set a debug(-7 / 2)\n"
            + "\\set a debug(-7 % 3)\n"
            + "\\set a debug(7 % -3)\n"
            + "\\set a debug(1.0 % 2)\n"
            + "\\set a debug(7.5 / 2)\n"
            + "\\set a debug(1.0 / 0)\n"
            + "\\set a debug(-1 / 0.0)\n"
            + "\\set a debug(0.0 / 0)\n"
            + "\\set a debug(least(-5.18, .0E0, 1.0/0) * -3.3)\n"
            + "\\set a debug(0.1 + 0.2)\n"
            + "\\set a debug(1e300 * 1e10)\n"
            + "\\set a debug(2 # 3 | 4 & 6)\n"
            + "\\set a debug(1 << 62 >> 3)\n"
            + "\\set a debug(~5)\n"
            + "\\set a debug(-9223372036854775808)\n"
            + "\\set a debug(9223372036854775807 / -1)\n"
            + "\\set a debug(abs(-9223372036854775808))\n"
            + "\\set a debug(abs(-2.5))\n"
            + "\\set a debug(int(2.5))\n"
            + "\\set a debug(int(3.5))\n"
            + "\\set a debug(int(-2.5))\n"
            + "\\set a debug(double(3))\n"
            + "\\set a debug(sqrt(2))\n"
            + "\\set a debug(ln(10))\n"
            + "\\set a debug(exp(1))\n"
            + "\\set a debug(pow(2, 0.5))\n"
            + "\\set a debug(power(2, 10))\n"
            + "\\set a debug(pi())\n"
            + "\\set a debug(greatest(1, 2.5, -3))\n"
            + "\\set a debug(least(3, 1, 2))\n"
            + "\\set a debug(123456789012345.678)\n"
            + "\\set a debug(0.000012345)\n"
            + "\\set a debug(1e15)\n"
            + "\\set a debug(1e-5)\n");
    s.put(
        "comparisons, booleans, NULL, CASE",
        "\\set a debug(1 = 1.0)\n"
            + "\\set a debug(2 <> 3)\n"
            + "\\set a debug(2 != 2)\n"
            + "\\set a debug(2 >= 3)\n"
            + "\\set a debug(2.5 > 2)\n"
            + "\\set a debug(true AND false)\n"
            + "\\set a debug(NULL AND false)\n"
            + "\\set a debug(false AND NULL)\n"
            + "\\set a debug(true OR NULL)\n"
            + "\\set a debug(NULL OR true)\n"
            + "\\set a debug(NOT true)\n"
            + "\\set a debug(NULL IS NULL)\n"
            + "\\set a debug(1 IS NULL)\n"
            + "\\set a debug(1 IS TRUE)\n"
            + "\\set a debug(true IS NOT FALSE)\n"
            + "\\set a debug(NULL ISNULL)\n"
            + "\\set a debug(1 NOTNULL)\n"
            + "\\set a debug(1 + NULL)\n"
            + "\\set a debug(least(1, NULL))\n"
            + "\\set a debug(CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 ELSE 3 END)\n"
            + "\\set a debug(CASE WHEN NULL THEN 1 END)\n"
            + "\\set a debug(:t)\n"
            + "\\set a debug(:f)\n"
            + "\\set a debug(:d)\n"
            + "\\set a debug(:i + 1)\n");
    s.put(
        "parameters reach SQL as pgbench sends them",
        "\\set n 3\n"
            + "\\set s 0.1 + 0.2\n"
            + "\\set b true\n"
            + "\\set big 1e300 * 1e10\n"
            + "SELECT repeat('x', :n) AS r, lpad('7', :n, '0') AS l, :s = 0.3 AS e,"
            + " :n + 1 AS p, :b AS b \\gset\n"
            + "\\set a debug(:e)\n"
            + "\\set a debug(:p)\n"
            + "\\set a debug(:b)\n"
            + "SELECT length(:'i') AS q, :s::float8 * 10 AS t \\gset\n"
            + "\\set a debug(:t)\n"
            + "SELECT 1 AS one, 2 AS two \\gset x_\n"
            + "\\set a debug(:x_one + :x_two)\n"
            + "SELECT 5 AS v UNION ALL SELECT 6 \\aset\n"
            + "\\set a debug(:v)\n"
            + "SELECT NULL::int AS nul \\gset\n"
            + "\\set a debug(:nul)\n");
    s.put("shell commands", "\\setshell x echo 42\n\\set a debug(:x + 1)\n\\shell true\n");
    s.put("setshell must return an integer", "\\setshell x echo forty-two\n");
    s.put("shell failing", "\\shell exit 3\n");
    s.put("int add overflow", "\\set i (1<<62) + (1<<62)\n");
    s.put("int sub overflow", "\\set i 0 - (1<<62) - (1<<62) - (1<<62)\n");
    s.put("int mul overflow", "\\set i 2 * (1<<62)\n");
    s.put("bigint div out of range", "\\set i -9223372036854775808 / -1\n");
    s.put("integer division by zero", "\\set i 1 / 0\n");
    s.put("integer modulo by zero", "\\set i 1 % 0\n");
    s.put("double modulo by zero", "\\set i 5 % 0.0\n");
    s.put("double to int overflow", "\\set i int(1E32)\n");
    s.put("coerce boolean to int", "\\set i TRUE + 2\n");
    s.put("coerce int to boolean", "\\set i 1 AND true\n");
    s.put("coerce double to boolean", "\\set i NOT 0.0\n");
    s.put("malformed variable", "\\set i :bad + 1\n");
    s.put("integer-looking define out of range", "\\set i debug(:big)\n");
    s.put("gset two rows", "SELECT generate_series(1, 2) AS a \\gset\n");
    s.put("gset no row", "SELECT 1 AS a WHERE false \\gset\n");
    s.put("gset default column name", "SELECT 1 \\gset\n");
    s.put("gset bad name", "SELECT 1 AS \"bad name!\" \\gset\n");
    s.put("aset no row leaves undefined", "SELECT 1 AS a WHERE false \\aset\n\\set x debug(:a)\n");
    s.put("open transaction at end", "BEGIN;\nSELECT 1;\n");
    s.put("empty random range", "\\set i random(5, 3)\n");
    s.put("gaussian parameter", "\\set i random_gaussian(0, 10, 1.0)\n");
    s.put("empty script", "-- nothing to run\n");
    s.put("unknown meta-command", "\\nosuchcommand\n");
    s.put("sleep unknown unit", "\\sleep 1 week\n");
    s.put("shell without command", "\\shell\n");
    s.put("setshell without command", "\\setshell var\n");
    s.put("set syntax error", "\\set i 1 +\n");
    s.put("sleep with attached unit", "\\sleep 2ms\n\\sleep 1 us\n\\set a debug(1)\n");
    List<Arguments> out = new ArrayList<>();
    for (QueryMode m : QueryMode.values()) {
      s.forEach((name, text) -> out.add(Arguments.of(name, text, m)));
    }
    return out.stream();
  }

  private static final Map<String, String> DEFINES =
      Map.of(
          "t",
          "true",
          "f",
          "of",
          "d",
          "2.50",
          "i",
          "41",
          "bad",
          "bla",
          "big",
          "99999999999999999999");

  @ParameterizedTest(name = "{0} -M {2}")
  @MethodSource("scripts")
  void sameDebugValuesAndOutcomeAsPgbench(String name, String script, QueryMode mode)
      throws Exception {
    assumeTrue(pgbenchAvailable(), "pgbench is not on PATH: nothing to compare with");
    Outcome theirs = pgbench(script, mode);
    Outcome ours = wg1bench(script, mode);
    if (script.contains("debug(") && theirs.result.equals("ok")) {
      assertTrue(!theirs.debug.isEmpty(), "pgbench printed no debug():\n" + theirs.stderr);
    }
    assertEquals(theirs.debug, ours.debug, "debug() values; pgbench stderr:\n" + theirs.stderr);
    assertEquals(
        theirs.result,
        ours.result,
        "outcome; pgbench stderr:\n" + theirs.stderr + "\nwg1bench: " + ours.stderr);
  }

  /**
   * @param result "ok" (pgbench exit 0), "failed" (the client aborted: pgbench exit 2; the op
   *     failed here) or "refused" (pgbench exit 1 before running; a usage error here, exit 2)
   */
  private record Outcome(String result, List<String> debug, String stderr) {}

  private static Boolean available;

  private static synchronized boolean pgbenchAvailable() {
    if (available == null) {
      try {
        Process p = new ProcessBuilder("pgbench", "--version").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        available = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException | InterruptedException e) {
        available = false;
      }
    }
    return available;
  }

  private Outcome pgbench(String script, QueryMode mode) throws Exception {
    Path f = tmp.resolve("t.sql");
    Files.writeString(f, script);
    TargetSpec t = TestServer.target();
    URI u = URI.create(t.jdbcUrl().substring("jdbc:".length()));
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            "pgbench",
            "-n",
            "-t",
            "1",
            "-c",
            "1",
            "--random-seed=" + SEED,
            "-M",
            mode.name().toLowerCase(Locale.ROOT),
            "-h",
            u.getHost(),
            "-p",
            Integer.toString(u.getPort() < 0 ? 5432 : u.getPort()),
            "-f",
            f.toString()));
    if (t.user() != null) {
      cmd.add("-U");
      cmd.add(t.user());
    }
    DEFINES.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.add(u.getPath().substring(1));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    if (t.password() != null) {
      pb.environment().put("PGPASSWORD", t.password().reveal());
    }
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    int rc = p.exitValue();
    String result = rc == 0 ? "ok" : rc == 1 ? "refused" : "failed";
    return new Outcome(result, debugValues(err, PGBENCH_DEBUG), err);
  }

  private static Outcome wg1bench(String script, QueryMode mode) throws Exception {
    ScriptWorkload w;
    try {
      w = new ScriptWorkload("t", List.of(new ScriptSource("t.sql", script, 1)));
    } catch (UsageException e) {
      return new Outcome("refused", List.of(), e.getMessage());
    }
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ErrorSamples stats = new ErrorSamples();
    boolean ok;
    try (Connection c =
            new ConnectionFactory(
                    TestServer.target(),
                    new ClientSettings(mode, null, Map.of(), DriverKnobs.defaults()))
                .openClient();
        ClientSession s = w.open(new ClientContext(0, 1, 1, SEED, 1, false, DEFINES, 8, false))) {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      try {
        ok = s.runOp(c, new OpCounts(), stats);
      } finally {
        System.setErr(saved);
      }
    }
    return new Outcome(
        ok ? "ok" : "failed",
        debugValues(err.toString(StandardCharsets.UTF_8), OUR_DEBUG),
        stats.lastMessage + " " + err.toString(StandardCharsets.UTF_8));
  }

  private static List<String> debugValues(String stderr, Pattern p) {
    List<String> v = new ArrayList<>();
    for (String line : stderr.split("\n")) {
      Matcher m = p.matcher(line.strip());
      if (m.matches()) {
        v.add(m.group(1));
      }
    }
    return v;
  }
}
