package dev.wg1bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ContainerTarget;
import dev.wg1bench.server.DataSourceTarget;
import dev.wg1bench.server.EmbeddedTarget;
import dev.wg1bench.server.ExternalTarget;
import java.io.PrintStream;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The layers of docs/explanation/architecture.md as rules, so an import running back up fails the
 * build instead of waiting for a review.
 *
 * <p>A run's data flows down from the entries through the schedulers to the server and back up as a
 * result; imports point down only: a layer reads the types of the layers under it and never names
 * one above it. The entry points and the schedulers call every stage, so they sit on top; what
 * every stage shares (plan, stats, json) sits at the bottom.
 */
@AnalyzeClasses(
    packages = "dev.wg1bench",
    importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class ArchitectureTest {

  private static final String BASE = "dev.wg1bench";

  /** A class of the base package and the classes nested in it, as a name pattern. */
  private static String withNested(String name) {
    return Pattern.quote(BASE + "." + name) + "(\\$.*)?";
  }

  /**
   * One layer of the picture: its name, the packages in it and why it sits where it does.
   *
   * @param name the layer's name in ArchUnit's messages and on the architecture page
   * @param packages the packages it holds, relative to {@code dev.wg1bench} ("" is the base)
   * @param why one line for the page
   */
  record Layer(String name, List<String> packages, String why) {
    /**
     * Its classes: those of its packages and their sub-packages, less the classes another layer
     * names one by one; and the classes it names itself (an entry whose last part starts with a
     * capital, e.g. {@code api.JdbcWorkload}, with the classes nested in it).
     */
    DescribedPredicate<JavaClass> members() {
      return DescribedPredicate.describe(
          String.join(", ", packages), c -> packages.stream().anyMatch(p -> holds(p, c)));
    }

    private static boolean holds(String entry, JavaClass c) {
      if (isClass(entry)) {
        return named(entry, c);
      }
      String pkg = entry.isEmpty() ? BASE : BASE + "." + entry;
      boolean inside =
          entry.isEmpty()
              ? c.getPackageName().equals(BASE)
              : c.getPackageName().equals(pkg) || c.getPackageName().startsWith(pkg + ".");
      return inside
          && LAYERS.stream()
              .flatMap(l -> l.packages().stream())
              .noneMatch(e -> isClass(e) && named(e, c));
    }

    private static boolean isClass(String entry) {
      String last = entry.substring(entry.lastIndexOf('.') + 1);
      return !last.isEmpty() && Character.isUpperCase(last.charAt(0));
    }

    private static boolean named(String entry, JavaClass c) {
      String name = BASE + "." + entry;
      return c.getName().equals(name) || c.getName().startsWith(name + "$");
    }
  }

  /**
   * The layers from the top (nothing calls it) to the bottom (everything may use it). This list is
   * the map: {@link #layers} enforces it and {@code ArchitectureMapTest} holds the architecture
   * page to it, so the page cannot draw a picture the build does not check. A new package has to be
   * placed here.
   */
  static final List<Layer> LAYERS =
      List.of(
          new Layer(
              "Entry",
              List.of("cli", "api", "tpcc"),
              "the commands, the Java API, TPC-C on the API"),
          new Layer("History", List.of("history"), "stored runs, change points, the CI gate"),
          new Layer(
              "Schedulers",
              List.of("run", "replay", "experiment", "ssb", "advise"),
              "run whole stage sequences"),
          new Layer("Report", List.of("report"), "writers: format what a result holds"),
          new Layer("Plot", List.of("plot"), "the one plotting toolkit"),
          new Layer("Result", List.of("result"), "result records, the one JMH mapper"),
          new Layer("Measurement", List.of("jmh"), "the @Benchmark and JMH's runner"),
          new Layer("Fork", List.of("fork"), "what a forked JVM hands back"),
          new Layer(
              "Workload",
              List.of("workload", "script", "load"),
              "what a client does, data loading"),
          new Layer(
              "Workload API",
              List.of("api.JdbcWorkload", "api.Op"),
              "the interfaces a user's workload class implements"),
          new Layer("Server", List.of("server"), "targets, connections, server info"),
          new Layer(
              "Foundation",
              List.of("plan", "stats", "json", ""),
              "the plan, pure statistics, JSON"));

  /** Each layer may be used only by the layers above it in {@link #LAYERS}. */
  @ArchTest static final ArchRule layers = layered();

  private static ArchRule layered() {
    LayeredArchitecture a = layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (Layer l : LAYERS) {
      a = a.layer(l.name()).definedBy(l.members());
    }
    for (int i = 0; i < LAYERS.size(); i++) {
      String[] above = LAYERS.subList(0, i).stream().map(Layer::name).toArray(String[]::new);
      a =
          i == 0
              ? a.whereLayer(LAYERS.get(i).name()).mayNotBeAccessedByAnyLayer()
              : a.whereLayer(LAYERS.get(i).name()).mayOnlyBeAccessedByLayers(above);
    }
    return a.ensureAllClassesAreContainedInArchitecture();
  }

  /**
   * Packages in one layer may use each other, so the layers alone allow a cycle there (run ↔
   * advise, workload ↔ script); none exists, and none should.
   */
  @ArchTest
  static final ArchRule noCycles =
      slices()
          .matching(BASE + ".(*)..")
          .should()
          .beFreeOfCycles()
          // the API's workload interfaces are a layer of their own (see LAYERS), not the API's
          // entry: the workloads that run a user's class use them, and name nothing of the API's
          .ignoreDependency(DescribedPredicate.alwaysTrue(), layer("Workload API").members());

  private static Layer layer(String name) {
    return LAYERS.stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * Replay's rooms flow one way: reading the log is the first stage, and knows nothing of the
   * capture, the player or the reports built on its records.
   */
  @ArchTest
  static final ArchRule theLogReadersKnowNothingOfTheLaterStages =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".replay.log..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              BASE + ".replay",
              BASE + ".replay.capture..",
              BASE + ".replay.play..",
              BASE + ".replay.result..",
              BASE + ".replay.report..");

  /** The capture models what the log recorded: it cannot know how it is played or reported. */
  @ArchTest
  static final ArchRule theCaptureKnowsNothingOfPlayingOrReporting =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".replay.capture..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              BASE + ".replay",
              BASE + ".replay.play..",
              BASE + ".replay.result..",
              BASE + ".replay.report..");

  /** The result records are a leaf: the player fills them, the report and the history read them. */
  @ArchTest
  static final ArchRule theResultRecordsNameNoStage =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".replay.result..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              BASE + ".replay",
              BASE + ".replay.log..",
              BASE + ".replay.capture..",
              BASE + ".replay.play..",
              BASE + ".replay.report..");

  /** The player plays one trial and hands back what it measured: it never writes the report. */
  @ArchTest
  static final ArchRule thePlayerKnowsNothingOfTheReport =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".replay.play..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(BASE + ".replay", BASE + ".replay.report..");

  /** The report writes what a trial measured; the command's stages call it, never the reverse. */
  @ArchTest
  static final ArchRule theReportKnowsNothingOfTheStages =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".replay.report..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(BASE + ".replay");

  /** Replay's rooms depend on each other one way only, whatever the rules above forget. */
  @ArchTest
  static final ArchRule replaysRoomsHaveNoCycles =
      slices().matching(BASE + ".replay.(*)..").should().beFreeOfCycles();

  /**
   * The history's other formats are a leaf: the commands export and import through them, and the
   * store, the analysis, the gate and the report never read a foreign format.
   */
  @ArchTest
  static final ArchRule theHistoryNeverReadsAForeignFormat =
      noClasses()
          .that()
          .resideInAnyPackage(
              BASE + ".history.store..",
              BASE + ".history.analysis..",
              BASE + ".history.gate..",
              BASE + ".history.report..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(BASE + ".history.format..");

  /** The analysis (series and their statistics) is what the rooms share: it reads none of them. */
  @ArchTest
  static final ArchRule theAnalysisReadsNoOtherRoom =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".history.analysis..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              BASE + ".history.store..", BASE + ".history.gate..", BASE + ".history.report..");

  /** The store keeps runs and hands them back as series; it never judges or draws them. */
  @ArchTest
  static final ArchRule theStoreNeverJudgesOrDraws =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".history.store..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(BASE + ".history.gate..", BASE + ".history.report..");

  /** The gate judges the series a command read from the store, and draws no page. */
  @ArchTest
  static final ArchRule theGateReadsOnlyTheAnalysis =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".history.gate..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(BASE + ".history.store..", BASE + ".history.report..");

  /** The report draws the series and change points it is given: it never reads the store. */
  @ArchTest
  static final ArchRule theReportReadsOnlyTheAnalysis =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".history.report..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(BASE + ".history.store..", BASE + ".history.gate..");

  /**
   * TPC-C is the proof that the public API carries a real application: it names the API, JDBC and
   * pgjdbc's COPY, and nothing else of the tool's.
   */
  @ArchTest
  static final ArchRule tpccOnlyOnTheApi =
      classes()
          .that()
          .resideInAPackage(BASE + ".tpcc..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              BASE + ".tpcc..",
              BASE + ".api..",
              "java..",
              "javax.sql..",
              "org.postgresql",
              "org.postgresql.copy..");

  /**
   * The commands read options into the values of the layer that does the work and print what comes
   * back: they never drive JMH, read a fork's wire format or draw, which belong to the run stage
   * and the writers.
   */
  @ArchTest
  static final ArchRule commandsStayAtTheirLayer =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".cli..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.openjdk.jmh..", BASE + ".jmh..", BASE + ".fork..", BASE + ".plot..");

  /**
   * What a target is, is asked of its kind's traits in server/ ({@code Targets.has}), never by
   * comparing a kind's name or constant elsewhere: a new kind then says in one place how it is
   * treated.
   */
  @ArchTest
  static final ArchRule kindsAskedOnlyInServer =
      noClasses()
          .that()
          .resideOutsideOfPackages(BASE + ".server..", BASE + ".plan..")
          .should()
          .callMethod(TargetSpec.Kind.class, "name")
          .orShould()
          .accessField(EmbeddedTarget.class, "EMBEDDED")
          .orShould()
          .accessField(ContainerTarget.class, "CONTAINER")
          .orShould()
          .accessField(ExternalTarget.class, "EXTERNAL")
          .orShould()
          .accessField(DataSourceTarget.class, "DATASOURCE");

  /**
   * Writers format, they do not compute: estimates, intervals, tests and verdicts come to them as
   * values (a diff from {@code advise.ResultDiff}, a run's summaries from {@code result}), so one
   * figure is computed once whichever writer shows it.
   */
  @ArchTest
  static final ArchRule writersDoNotCompute =
      noClasses()
          .that()
          .resideInAnyPackage(BASE + ".report..", BASE + ".plot..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(BASE + ".stats..");

  /**
   * Writers format a result; JMH's types, and the forks' wire format, reach them only through the
   * result model.
   */
  @ArchTest
  static final ArchRule writersNeverSeeJmh =
      noClasses()
          .that()
          .resideInAnyPackage(BASE + ".report..", BASE + ".plot..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.openjdk.jmh..", BASE + ".jmh..", BASE + ".fork..");

  /** JMH's own API stays behind the measurement stage: forks, options and results stay there. */
  @ArchTest
  static final ArchRule jmhApiOnlyInMeasurement =
      noClasses()
          .that()
          .resideOutsideOfPackage(BASE + ".jmh..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.openjdk.jmh..");

  /**
   * One class maps what the measurement stage reports to the result model; the rest of result reads
   * only the forks' wire format (fork.ForkReport, and the counts it carries), never the runner or
   * its trials.
   */
  @ArchTest
  static final ArchRule oneJmhResultMapper =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".result..")
          .and()
          .haveNameNotMatching(withNested("result.JmhResultMapper"))
          .should()
          .dependOnClassesThat()
          .resideInAPackage(BASE + ".jmh..");

  /**
   * Standard output is the commands': a report or a result printed from deeper down would mix with
   * what a user pipes. SsbFiles' main is a generator benchmark that prints its own figure;
   * OutputFile writes a result to stdout when the user names it ({@code -o /dev/stdout}).
   */
  @ArchTest
  static final ArchRule onlyCommandsPrintToStdout =
      noClasses()
          .that()
          .resideOutsideOfPackage(BASE + ".cli..")
          .and()
          .haveNameNotMatching(withNested("load.ssb.SsbFiles"))
          .and()
          .haveNameNotMatching(withNested("json.OutputFile"))
          .should()
          .accessField(System.class, "out");

  /**
   * A command prints through picocli's writers ({@code getOut()}/{@code getErr()}): only Main hands
   * them the process's streams, so that command lines run in one JVM at once (tests) print each to
   * its own. CliReference's main is a build step that says what it wrote. Nothing swaps the
   * process's streams: that is what made the tests' capture a lock one hung test held for all.
   */
  @ArchTest
  static final ArchRule commandsPrintThroughPicocli =
      noClasses()
          .that()
          .resideInAPackage(BASE + ".cli..")
          .and()
          .haveNameNotMatching(withNested("cli.Main"))
          .and()
          .haveNameNotMatching(withNested("cli.CliReference"))
          .should()
          .accessField(System.class, "out")
          .orShould()
          .accessField(System.class, "err");

  @ArchTest
  static final ArchRule nothingSwapsTheProcessStreams =
      noClasses()
          .should()
          .callMethod(System.class, "setOut", PrintStream.class)
          .orShould()
          .callMethod(System.class, "setErr", PrintStream.class);

  /**
   * Standard error carries one-line notices where no caller could hear them otherwise: the
   * commands; JMH's forked JVMs, whose stderr JMH relays; the embedded server's download and
   * shutdown; a trial directory left behind; pgbench's debug(), which writes to stderr by spec; a
   * result named {@code /dev/stderr}, or one that no file could take (OutputFile). Writers, results
   * and workloads never print: their callers decide where text goes.
   */
  @ArchTest
  static final ArchRule fewPrintToStderr =
      noClasses()
          .that()
          .resideOutsideOfPackages(BASE + ".cli..", BASE + ".jmh..")
          .and()
          .haveNameNotMatching(withNested("server.EmbeddedServer"))
          .and()
          .haveNameNotMatching(withNested("server.EmbeddedBinaries"))
          .and()
          .haveNameNotMatching(withNested("run.TrialExecution"))
          .and()
          .haveNameNotMatching(withNested("script.FunctionNodes"))
          .and()
          .haveNameNotMatching(withNested("json.OutputFile"))
          .should()
          .accessField(System.class, "err");
}
