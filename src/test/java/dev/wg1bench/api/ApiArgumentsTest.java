package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.Targets;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public setter and builder method of the API refuses a bad argument where it is given, as an
 * {@link InvalidSettingException} that names the call and the value in the caller's unit and says
 * what is valid: never a command-line flag, never a percentage made from a fraction. One table per
 * family of methods; no server is started (a refusal comes before anything runs).
 */
class ApiArgumentsTest {
  /** A description that would run if nothing were refused. */
  private static final Wg1bench W = Wg1bench.workload("tpcb");

  private static final Comparison.Builder C = Wg1bench.compare(W, W);

  /** One call and the one line it is refused with. */
  record Case(String message, Executable call) {
    @Override
    public String toString() {
      return message;
    }
  }

  private static Case refused(String message, Executable call) {
    return new Case(message, call);
  }

  static Stream<Case> counts() {
    return Stream.of(
        refused("clients(0): from 1 to 10000 clients, got 0", () -> W.clients(0)),
        refused("clients(10001): from 1 to 10000 clients, got 10001", () -> W.clients(10_001)),
        refused("poolSize(0): from 1 to clients() connections, got 0", () -> W.poolSize(0)),
        refused("iterations(0): from 1 to 1000 iterations, got 0", () -> W.iterations(0)),
        refused("forks(-1): from 0 (this JVM) to 100 forks, got -1", () -> W.forks(-1)),
        refused("forks(101): from 0 (this JVM) to 100 forks, got 101", () -> W.forks(101)),
        refused(
            "fetchSize(-1): from 0 (pgjdbc's) to 100000000 rows, got -1", () -> W.fetchSize(-1)),
        refused("maxTries(0): from 1 (no retry) to 1000000 tries, got 0", () -> W.maxTries(0)),
        refused("scale(0): a scale factor from 1 to 1000000, got 0", () -> W.scale(0)),
        refused("batchSize(0): from 1 to 100000 rows, got 0", () -> W.batchSize(0)),
        refused("initPgbench(0): a scale factor from 1 to 1000000, got 0", () -> W.initPgbench(0)),
        refused("blocks(1): from 2 to 1000 blocks, got 1", () -> C.blocks(1)),
        refused("blocks(1001): from 2 to 1000 blocks, got 1001", () -> C.blocks(1001)));
  }

  static Stream<Case> sharesAndRates() {
    return Stream.of(
        refused(
            "allowedFailureRate(1.5): a share between 0 and 1, got 1.5",
            () -> C.allowedFailureRate(1.5)),
        refused(
            "allowedFailureRate(-0.01): a share between 0 and 1, got -0.01",
            () -> C.allowedFailureRate(-0.01)),
        refused(
            "allowedFailureRate(NaN): a share between 0 and 1, got NaN",
            () -> C.allowedFailureRate(Double.NaN)),
        refused("margin(0): a share between 0.001 and 1, got 0", () -> C.margin(0)),
        refused("margin(5): a share between 0.001 and 1, got 5", () -> C.margin(5)),
        refused("precision(0): a share between 0.001 and 1, got 0", () -> C.precision(0)),
        refused("precision(-1): a share between 0.001 and 1, got -1", () -> C.precision(-1)),
        refused(
            "rate(0): ops per second, more than 0 and at most 10000000, got 0", () -> W.rate(0)),
        refused(
            "rate(20000000): ops per second, more than 0 and at most 10000000, got 20000000",
            () -> W.rate(2e7)));
  }

  static Stream<Case> durations() {
    return Stream.of(
        refused("duration(PT0S): a time more than 0, got PT0S", () -> W.duration(Duration.ZERO)),
        refused("duration(null): a time more than 0, got null", () -> W.duration(null)),
        refused(
            "warmup(PT-1S): a time of 0 or more, got PT-1S",
            () -> W.warmup(Duration.ofSeconds(-1))),
        refused(
            "rtt(PT11S): a round-trip time from 0 to 10 s, got PT11S",
            () -> W.rtt(Duration.ofSeconds(11))),
        refused(
            "rtt(PT-0.001S): a round-trip time from 0 to 10 s, got PT-0.001S",
            () -> W.rtt(Duration.ofMillis(-1))),
        refused(
            "statementTimeout(PT-0.05S): a time of 0 (none) or more, got PT-0.05S",
            () -> W.statementTimeout(Duration.ofMillis(-50))),
        refused("budget(PT0S): a time more than 0, got PT0S", () -> C.budget(Duration.ZERO)),
        refused(
            "runAt(PT-0.001S): round-trip times from 0 to 10 s, got PT-0.001S",
            () -> C.runAt(Duration.ZERO, Duration.ofMillis(-1))),
        refused(
            "runAt(PT11S): round-trip times from 0 to 10 s, got PT11S",
            () -> C.runAt(Duration.ofSeconds(11))),
        refused(
            "runAt(): at least one round-trip time, e.g. Duration.ZERO, got none", () -> C.runAt()),
        refused(
            "predictRtt(): at least one round-trip time, e.g. Duration.ofMillis(2), got none",
            () -> W.predictRtt()),
        refused(
            "predictRtt(PT11S): round-trip times from 0 to 10 s, got PT11S",
            () -> W.predictRtt(Duration.ofMillis(1), Duration.ofSeconds(11))),
        refused(
            "predictRtt(PT-0.001S): round-trip times from 0 to 10 s, got PT-0.001S",
            () -> W.predictRtt(Duration.ofMillis(-1))),
        refused(
            "predictRtt(null): round-trip times from 0 to 10 s, got null",
            () -> W.predictRtt((Duration) null)),
        refused(
            "predictRtt(PT0.002S): each round-trip time once, got PT0.002S twice",
            () -> W.predictRtt(Duration.ofMillis(2), Duration.ofMillis(2))));
  }

  static Stream<Case> namesAndChoices() {
    return Stream.of(
        refused(
            "param(\"rows-max\", \"5\"): a parameter name of letters, digits and _, got"
                + " \"rows-max\"",
            () -> W.param("rows-max", "5")),
        refused("param(\"rows\", null): a value, got null", () -> W.param("rows", null)),
        refused(
            "set(\"work mem\", \"64MB\"): a setting name of letters, digits, _ and ., got"
                + " \"work mem\"",
            () -> W.set("work mem", "64MB")),
        refused(
            "jdbcProperty(\"prepareTreshold\", \"1\"): 'prepareTreshold' is not a pgjdbc"
                + " property; closest: prepareThreshold",
            () -> W.jdbcProperty("prepareTreshold", "1")),
        refused(
            "jdbcProperty(\"defaultRowFetchSize\", \"100\"): defaultRowFetchSize: use"
                + " fetchSize()",
            () -> W.jdbcProperty("defaultRowFetchSize", "100")),
        refused(
            "jdbcProperty(\"password\", ...): give it to against(jdbcUrl, user, password), got"
                + " \"password\"",
            () -> W.jdbcProperty("password", "s3cret")),
        refused(
            "prepareThreshold(-2): from -1 to 1000000 executions, got -2",
            () -> W.prepareThreshold(-2)),
        refused("workload(\"tpcz\"): 'tpcz' is not a workload", () -> Wg1bench.workload("tpcz")),
        refused("threads(null): PLATFORM or VIRTUAL, got null", () -> W.threads(null)),
        refused(
            "isolation(null): READ_COMMITTED, REPEATABLE_READ or SERIALIZABLE, got null",
            () -> W.isolation(null)),
        refused("queryMode(null): SIMPLE, EXTENDED or PREPARED, got null", () -> W.queryMode(null)),
        refused("metric(null): TPS, P50 or P99, got null", () -> C.metric(null)),
        refused("console(null): a PrintStream, e.g. System.out, got null", () -> W.console(null)),
        refused("output(null): a file for the JSON result, got null", () -> W.output(null)),
        refused("against(null): a DataSource, got null", () -> W.against((DataSource) null)),
        refused(
            "workload(null): a JdbcWorkload class, got null",
            () -> Wg1bench.workload((Class<? extends JdbcWorkload>) null)));
  }

  /**
   * What a setter cannot know alone, refused when the run is asked for (before anything runs),
   * still naming the API's methods.
   */
  static Stream<Case> combinations() {
    Wg1bench on = W.againstEmbedded();
    return Stream.of(
        refused(
            "poolSize() must be between 1 and 2, got 8",
            () -> W.clients(2).poolSize(8).againstEmbedded().run()),
        refused(
            "blocks(2): 3 blocks at least with precision(0.05) (the pilot's), got 2",
            () -> Wg1bench.compare(on, W).blocks(2).precision(0.05).run()),
        refused(
            "budget(PT1M): needs precision(...), a goal to spend it on, got no goal",
            () -> Wg1bench.compare(on, W).budget(Duration.ofMinutes(1)).run()),
        refused(
            "compare(baseline, treatment): each arm runs on one target: give the baseline exactly"
                + " one against(...), got 0 targets",
            () -> Wg1bench.compare(W, W).run()),
        refused(
            "forks(1): 0 for the workload s, made by a Supplier in this JVM, which a forked JVM"
                + " cannot call (or a JdbcWorkload class), got 1",
            () -> Wg1bench.workload("s", () -> op -> {}).forks(1).againstEmbedded().run()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"counts", "sharesAndRates", "durations", "namesAndChoices", "combinations"})
  void aBadArgumentIsRefusedInTheApisWords(Case c) {
    InvalidSettingException e = assertThrows(InvalidSettingException.class, c.call());
    String m = e.getMessage();
    assertAll(
        () -> assertEquals(c.message(), m.startsWith(c.message()) ? c.message() : m),
        () -> assertFalse(m.contains("--"), "no command-line flag: " + m),
        () -> assertFalse(m.contains("%"), "no percentage: " + m),
        () -> assertEquals(1, m.lines().count(), "one line: " + m));
  }

  /**
   * A password given to {@code against} is never part of a refusal: the call is named with the word
   * {@code password} in its place.
   */
  @Test
  void aRefusedUrlNamesTheCallWithoutItsPassword() {
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () -> W.against("postgres://nowhere", "app", "s3cret-pw"));
    assertFalse(e.getMessage().contains("s3cret-pw"), e.getMessage());
    assertEquals(
        "against(\"postgres://nowhere\", \"app\", password): ",
        e.getMessage().substring(0, e.getMessage().indexOf(": ") + 2),
        e.getMessage());
  }

  /**
   * The API's bounds are the engine's: a description at every bound a setter accepts builds a plan
   * the engine accepts (so a bound the engine narrows fails here, not in a user's run).
   */
  @Test
  void everyBoundTheApiAcceptsTheEngineAccepts(@TempDir Path dir) {
    List<TargetSpec> on = List.of(Targets.defaultTarget());
    List<Function<Wg1bench, Wg1bench>> bounds =
        List.of(
            w -> w.clients(1),
            w -> w.clients(10_000).poolSize(10_000),
            w -> w.iterations(1),
            w -> w.duration(Duration.ofSeconds(100)).iterations(1000),
            w -> w.forks(100),
            w -> w.fetchSize(0),
            w -> w.fetchSize(100_000_000),
            w -> w.maxTries(1_000_000),
            w -> w.scale(1_000_000),
            w -> w.batchSize(1),
            w -> w.batchSize(100_000),
            w -> w.rate(1e-9),
            w -> w.rate(10_000_000),
            w -> w.rtt(Duration.ofSeconds(10)),
            w -> w.predictRtt(Duration.ZERO, Duration.ofSeconds(10)),
            w -> w.statementTimeout(Duration.ZERO),
            w -> w.warmup(Duration.ZERO),
            w -> w.duration(Duration.ofMillis(100)).iterations(1),
            w -> w.param("rows_2", "5"),
            w -> w.set("app.x_1", "on"),
            w -> w.jdbcProperty("tcpKeepAlive", "true"),
            w -> w.queryMode(QueryMode.EXTENDED).prepareThreshold(-1),
            w -> w.console(new PrintStream(PrintStream.nullOutputStream())));
    for (Function<Wg1bench, Wg1bench> b : bounds) {
      b.apply(W).plan(dir.resolve("r.json"), on);
    }
    Wg1bench.compare(W, W).blocks(2).blocks(1000).margin(0.001).margin(1).precision(0.001);
    Wg1bench.compare(W, W).allowedFailureRate(0).allowedFailureRate(1).precision(1);
  }
}
