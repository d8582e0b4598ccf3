package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.cli.CliPlans;
import dev.wg1bench.plan.BlockDefaults;
import dev.wg1bench.plan.Durations;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.Timing;
import dev.wg1bench.plan.TimingDefaults;
import dev.wg1bench.run.BlockExperiment;
import dev.wg1bench.server.Targets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's defaults are the command line's, read from the plans both make when nothing is set, and
 * its javadoc states the values those plans hold: a default said wrong, or changed in one place
 * only, fails here.
 */
class ApiDefaultsTest {
  private static final Path WG1BENCH = Path.of("src/main/java/dev/wg1bench/api/Wg1bench.java");
  private static final Path COMPARISON = Path.of("src/main/java/dev/wg1bench/api/Comparison.java");

  @TempDir Path dir;

  private RunPlan cli() {
    return CliPlans.plan("--workload", "tpcb", "--output", dir.resolve("cli.json").toString());
  }

  private RunPlan api() {
    return Wg1bench.workload("tpcb")
        .plan(dir.resolve("api.json"), List.of(Targets.defaultTarget()));
  }

  @Test
  void everyKnobNobodySetsHoldsTheCommandLinesValue() {
    RunPlan cli = cli();
    RunPlan api = api();
    for (Knob<?> k : Knobs.ALL) {
      assertEquals(k.get(cli), k.get(api), k.key() + ": the API's default is not the CLI's");
    }
    assertEquals(cli.clients(), api.clients(), "clients");
    assertEquals(cli.poolSize(), api.poolSize(), "poolSize");
    assertEquals(cli.session().maxTries(), api.session().maxTries(), "maxTries");
    assertEquals(cli.timing().rate(), api.timing().rate(), "rate");
    assertEquals(cli.timing().perCommand(), api.timing().perCommand(), "reportPerCommand");
    assertEquals(cli.timing().predictAtMs(), api.timing().predictAtMs(), "predictRtt");
  }

  /**
   * predictRtt's times are the plan's, in the order given, in ms; a plan without holds the CLI's.
   */
  @Test
  void predictRttIsThePlansAsTheCommandLinesIs() {
    RunPlan set =
        Wg1bench.workload("tpcb")
            .predictRtt(Duration.ofMillis(5), Duration.ofNanos(250_000), Duration.ZERO)
            .plan(dir.resolve("set.json"), List.of(Targets.defaultTarget()));
    RunPlan cli =
        CliPlans.plan(
            "--workload",
            "tpcb",
            "--predict-rtt",
            "5ms,250us,0",
            "--output",
            dir.resolve("cli-set.json").toString());
    assertEquals(List.of(5.0, 0.25, 0.0), set.timing().predictAtMs());
    assertEquals(cli.timing().predictAtMs(), set.timing().predictAtMs());
  }

  /**
   * The timing is where the API differs on purpose: each plan holds its declared defaults, and the
   * class javadoc names every value that differs with the command line's beside it.
   */
  @Test
  void theTimingDiffersOnlyWhereTheClassJavadocSaysSo() throws IOException {
    Timing cli = cli().timing();
    Timing api = api().timing();
    assertTiming(TimingDefaults.RUN, cli);
    assertTiming(TimingDefaults.API, api);
    String doc = classJavadoc();
    Map<String, String> differences = new LinkedHashMap<>();
    if (api.forks() != cli.forks()) {
      differences.put(
          "forks", "forks(" + api.forks() + ")}, the command line's is " + cli.forks() + ")");
    }
    if (!api.duration().equals(cli.duration())) {
      differences.put(
          "duration", seconds(api.duration()) + " measured (" + seconds(cli.duration()) + ")");
    }
    if (!api.warmup().equals(cli.warmup())) {
      differences.put("warmup", seconds(api.warmup()) + " warmup (" + seconds(cli.warmup()) + ")");
    }
    if (api.iterations() != cli.iterations()) {
      differences.put("iterations", api.iterations() + " iterations (" + cli.iterations() + ")");
    }
    for (Map.Entry<String, String> e : differences.entrySet()) {
      assertTrue(
          doc.contains(e.getValue()),
          e.getKey() + ": the class javadoc should say '" + e.getValue() + "' in: " + doc);
    }
  }

  /** {@code 0.5 ms, 1 ms and 2 ms}: round-trip times in ms as the javadoc says them. */
  private static String times(List<Double> ms) {
    List<String> t =
        ms.stream()
            .map(m -> (m == Math.rint(m) ? Long.toString(m.longValue()) : m.toString()) + " ms")
            .toList();
    return t.size() == 1
        ? t.get(0)
        : String.join(", ", t.subList(0, t.size() - 1)) + " and " + t.get(t.size() - 1);
  }

  /** Each setting's javadoc states the value a plan holds when the setting is not called. */
  @Test
  void eachSettingsJavadocStatesThePlansValue() throws IOException {
    RunPlan api = api();
    Timing cli = cli().timing();
    Map<String, String> stated = new LinkedHashMap<>();
    stated.put("clients", "default " + api.clients() + ", as the command line's");
    stated.put(
        "duration",
        "default "
            + seconds(api.timing().duration())
            + "; the command line's {@code -T} is "
            + seconds(cli.duration()));
    stated.put(
        "warmup",
        "default "
            + seconds(api.timing().warmup())
            + "; the command line's is "
            + seconds(cli.warmup()));
    stated.put(
        "iterations",
        "default " + api.timing().iterations() + "; the command line's is " + cli.iterations());
    stated.put("forks", api.timing().forks() + " (the default here)");
    stated.put("maxTries", "default " + api.session().maxTries());
    stated.put("randomSeed", "default " + api.params().randomSeed());
    stated.put(
        "predictRtt", "default " + times(api.timing().predictAtMs()) + ", the command line's");
    for (Map.Entry<String, String> e : stated.entrySet()) {
      String doc = methodJavadoc(e.getKey());
      assertTrue(
          doc.contains(e.getValue()),
          e.getKey() + "'s javadoc should say '" + e.getValue() + "': " + doc);
    }
  }

  /**
   * A comparison's design with nothing set is advise's with no option, field by field, or the
   * setting's javadoc says both values (and why): built by both, so a default changed in one place
   * only, or said wrong, fails here.
   */
  @Test
  void aComparisonsDefaultsAreAdvisesOrItsSettingsJavadocSaysBoth() throws IOException {
    // a precision goal, so that the budget's default is in the design
    BlockExperiment.Design cli = CliPlans.adviseDesign("--precision", "2%");
    Wg1bench arm = Wg1bench.workload("tpcb");
    BlockExperiment.Design api = Wg1bench.compare(arm, arm).precision(0.02).design();
    assertEquals(BlockDefaults.ADVISE.blocks(), cli.blocks(), "advise's blocks");
    assertEquals(BlockDefaults.ADVISE.budget(), cli.budget(), "advise's budget");
    assertEquals(BlockDefaults.ADVISE.margin(), cli.margin(), "advise's margin");
    assertEquals(BlockDefaults.API.blocks(), api.blocks(), "the API's blocks");
    assertEquals(BlockDefaults.API.budget(), api.budget(), "the API's budget");
    assertEquals(cli.between(), api.between(), "between trials");
    String src = Files.readString(COMPARISON);
    stated(src, "blocks", cli.blocks() == api.blocks(), api.blocks() + "", cli.blocks() + "");
    stated(
        src,
        "budget",
        cli.budget().equals(api.budget()),
        minutes(api.budget()),
        minutes(cli.budget()));
    stated(src, "margin", cli.margin() == api.margin(), plain(api.margin()), plain(cli.margin()));
    stated(
        src,
        "allowedFailureRate",
        cli.allowedFailureRate() == api.allowedFailureRate(),
        plain(api.allowedFailureRate()),
        plain(cli.allowedFailureRate()));
  }

  /** A Builder setting's javadoc: "default A, as advise's" or "default A; advise's is C". */
  private static void stated(String src, String setting, boolean same, String api, String cli) {
    int m = src.indexOf("public Builder " + setting + "(");
    assertTrue(m > 0, "no setting " + setting);
    String doc = flat(src.substring(src.lastIndexOf("/**", m), m));
    String said =
        same ? "default " + api + ", as advise's" : "default " + api + "; advise's is " + cli;
    assertTrue(doc.contains(said), setting + "'s javadoc should say '" + said + "': " + doc);
  }

  /** "10 minutes", "1 hour" as the javadoc writes a budget. */
  private static String minutes(Duration d) {
    return d.toMinutes() % 60 == 0
        ? d.toHours() + (d.toHours() == 1 ? " hour" : " hours")
        : d.toMinutes() + " minutes";
  }

  /** 0.05 as "0.05", 0 as "0". */
  private static String plain(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** advise's --help says the defaults its design holds. */
  @Test
  void advisesHelpStatesTheDesignsValues() {
    BlockExperiment.Design cli = CliPlans.adviseDesign("--precision", "2%");
    String help = CliPlans.usage("advise").replaceAll("\\s+", " ");
    assertTrue(
        help.contains("fixes the total (default: " + cli.blocks() + ")"), "--blocks: " + help);
    assertTrue(
        help.contains("shared by the claims (default: " + Durations.option(cli.budget()) + ")"),
        "--budget: " + help);
    assertTrue(
        help.contains("1+M] (default: " + BlockDefaults.percent(cli.margin()) + ")"),
        "--margin: " + help);
    assertTrue(
        help.contains("(default: " + BlockDefaults.percent(cli.allowedFailureRate()) + ": any"),
        "--allowed-failure-rate: " + help);
  }

  /** The command line's --help says the defaults its plan holds. */
  @Test
  void theCommandLinesHelpStatesThePlansValues() {
    RunPlan cli = cli();
    String help = new picocli.CommandLine(new dev.wg1bench.cli.Main()).getUsageMessage();
    String flat = help.replaceAll("\\s+", " ");
    assertTrue(flat.contains("(default: " + cli.clients() + ")"), "--clients: " + flat);
    assertTrue(
        flat.contains("2m (default: " + TimingDefaults.text(cli.timing().duration()) + ")"),
        "-T: " + flat);
    assertTrue(
        flat.contains("0 for none (default: " + TimingDefaults.text(cli.timing().warmup()) + ")"),
        "--warmup: " + flat);
    assertTrue(
        flat.contains("split into (default: " + cli.timing().iterations() + ")"),
        "--iterations: " + flat);
    assertTrue(
        flat.contains("in this JVM (default: " + cli.timing().forks() + ")"), "--forks: " + flat);
  }

  private static void assertTiming(TimingDefaults d, Timing t) {
    assertEquals(d.duration(), t.duration(), "duration");
    assertEquals(d.warmup(), t.warmup(), "warmup");
    assertEquals(d.iterations(), t.iterations(), "iterations");
    assertEquals(d.forks(), t.forks(), "forks");
  }

  /** "5 s" as the javadoc writes a whole number of seconds. */
  private static String seconds(Duration d) {
    return d.toSeconds() + " s";
  }

  /** Wg1bench's class javadoc, on one line. */
  private static String classJavadoc() throws IOException {
    String src = Files.readString(WG1BENCH);
    int cls = src.indexOf("public final class Wg1bench");
    int start = src.lastIndexOf("/**", cls);
    return flat(src.substring(start, cls));
  }

  /** The javadoc of {@code public Wg1bench NAME(...)}, on one line. */
  private static String methodJavadoc(String name) throws IOException {
    String src = Files.readString(WG1BENCH);
    int m = src.indexOf("public Wg1bench " + name + "(");
    assertTrue(m > 0, "no setting " + name);
    return flat(src.substring(src.lastIndexOf("/**", m), m));
  }

  private static String flat(String javadoc) {
    return javadoc.replaceAll("\\s*\\n\\s*\\*?", " ").replaceAll("\\s+", " ");
  }
}
