package dev.wg1bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.regex.Pattern;

/**
 * The stage order of docs/ARCHITECTURE.md as rules, so an import running back up fails the build
 * instead of waiting for a review.
 *
 * <p>Data flows cli → plan → server → workload → jmh → (fork) → result → report; imports run the
 * other way: a stage reads the types of the stages before it and never names a stage after it. The
 * entry points and the schedulers call every stage, so they sit on top; the packages every stage
 * shares (plan, stats, json) sit at the bottom.
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
   * Each layer may be used only by the layers above it. A new package has to be placed here, so the
   * picture grows with the tree.
   */
  @ArchTest
  static final ArchRule layers =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          // the user's ways in: picocli commands and the Java API; nothing calls them. The
          // built-in TPC-C is written on the Java API as a user's class is (see tpccOnlyOnTheApi)
          .layer("Entry")
          .definedBy(BASE + ".cli..", BASE + ".api..", BASE + ".tpcc..")
          // the results history: stored runs, change points, the CI gate; it reads results and
          // may re-run a comparison through the schedulers, so it sits right under the entries
          .layer("History")
          .definedBy(BASE + ".history..")
          // schedulers that run a whole stage sequence (trials, sweeps, agents, replays,
          // experiments, SSB, advice) and hand the result to the writers
          .layer("Schedulers")
          .definedBy(
              BASE + ".run..",
              BASE + ".replay..",
              BASE + ".experiment..",
              BASE + ".ssb..",
              BASE + ".advise..")
          // writers format what the result holds
          .layer("Report")
          .definedBy(BASE + ".report..")
          // the one plotting toolkit: only writers (and experiments) draw
          .layer("Plot")
          .definedBy(BASE + ".plot..")
          // result records and the one JMH → result mapper
          .layer("Result")
          .definedBy(BASE + ".result..")
          // the @Benchmark, its states and the JMH runner
          .layer("Measurement")
          .definedBy(BASE + ".jmh..")
          // what a fork sends back (its report, the mergeable counts): written by jmh, read by
          // result and the agents' scheduler
          .layer("Fork")
          .definedBy(BASE + ".fork..")
          // what a client does: workloads, the pgbench script language, data loading
          .layer("Workload")
          .definedBy(BASE + ".workload..", BASE + ".script..", BASE + ".load..")
          // targets behind one interface, pgjdbc connections, server info
          .layer("Server")
          .definedBy(BASE + ".server..")
          // shared by every stage: the validated plan, pure statistics, the one JSON mapper,
          // the build's identity
          .layer("Foundation")
          .definedBy(BASE + ".plan..", BASE + ".stats..", BASE + ".json..", BASE)
          .whereLayer("Entry")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("History")
          .mayOnlyBeAccessedByLayers("Entry")
          .whereLayer("Schedulers")
          .mayOnlyBeAccessedByLayers("Entry", "History")
          .whereLayer("Report")
          .mayOnlyBeAccessedByLayers("Entry", "History", "Schedulers")
          .whereLayer("Plot")
          .mayOnlyBeAccessedByLayers("Entry", "History", "Schedulers", "Report")
          .whereLayer("Result")
          .mayOnlyBeAccessedByLayers("Entry", "History", "Schedulers", "Report", "Plot")
          .whereLayer("Measurement")
          .mayOnlyBeAccessedByLayers("Entry", "History", "Schedulers", "Report", "Plot", "Result")
          .whereLayer("Fork")
          .mayOnlyBeAccessedByLayers(
              "Entry", "History", "Schedulers", "Report", "Plot", "Result", "Measurement")
          .whereLayer("Workload")
          .mayOnlyBeAccessedByLayers(
              "Entry", "History", "Schedulers", "Report", "Plot", "Result", "Measurement", "Fork")
          .whereLayer("Server")
          .mayOnlyBeAccessedByLayers(
              "Entry",
              "History",
              "Schedulers",
              "Report",
              "Plot",
              "Result",
              "Measurement",
              "Fork",
              "Workload")
          .whereLayer("Foundation")
          .mayOnlyBeAccessedByLayers(
              "Entry",
              "History",
              "Schedulers",
              "Report",
              "Plot",
              "Result",
              "Measurement",
              "Fork",
              "Workload",
              "Server")
          .ensureAllClassesAreContainedInArchitecture();

  /**
   * Packages in one layer may use each other, so the layers alone allow a cycle there (run ↔
   * advise, workload ↔ script); none exists, and none should.
   */
  @ArchTest
  static final ArchRule noCycles = slices().matching(BASE + ".(*)..").should().beFreeOfCycles();

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
   * what a user pipes. SsbFiles' main is a generator benchmark that prints its own figure.
   */
  @ArchTest
  static final ArchRule onlyCommandsPrintToStdout =
      noClasses()
          .that()
          .resideOutsideOfPackage(BASE + ".cli..")
          .and()
          .haveNameNotMatching(withNested("load.ssb.SsbFiles"))
          .should()
          .accessField(System.class, "out");

  /**
   * Standard error carries one-line notices where no caller could hear them otherwise: the
   * commands; JMH's forked JVMs, whose stderr JMH relays; the embedded server's download and
   * shutdown; a trial directory left behind; pgbench's debug(), which writes to stderr by spec.
   * Writers, results and workloads never print: their callers decide where text goes.
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
          .should()
          .accessField(System.class, "err");
}
