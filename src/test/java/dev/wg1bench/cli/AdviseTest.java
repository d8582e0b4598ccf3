package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.advise.Advice;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.Targets;
import dev.wg1bench.support.PgbenchData;
import dev.wg1bench.support.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Advice files are data; every shipped one is runnable; advise reports ratio, CI and verdict. */
class AdviseTest {
  @TempDir Path tmp;

  @Test
  void theIndexListsEveryShippedAdviceFile() throws Exception {
    Set<String> files;
    try (Stream<Path> s = Files.list(Path.of("config/advice"))) {
      files =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".properties"))
              .map(n -> n.replaceFirst("\\.properties$", ""))
              .collect(Collectors.toSet());
    }
    Set<String> shipped = Advice.shipped().stream().map(Advice::name).collect(Collectors.toSet());
    assertEquals(files, shipped, "config/advice/INDEX must list every advice file");
    assertTrue(shipped.size() >= 7, "a piece of advice for every claim in WORKLOADS.md");
  }

  /** Every shipped advice parses into two one-point arms that differ, as the run command would. */
  @Test
  void everyShippedAdviceHasTwoValidArms() {
    List<TargetSpec> local =
        List.of(Targets.parse("jdbc:postgresql://127.0.0.1:1/x", java.util.Map.of(), null));
    for (Advice a : Advice.shipped()) {
      assertNotNull(a.claim());
      assertTrue(!a.seed().isBlank(), a.name());
      var base = parse(a.common() + " " + a.baseline(), local);
      var treat = parse(a.common() + " " + a.treatment(), local);
      assertEquals(1, base.points().size(), a.name());
      assertEquals(1, treat.points().size(), a.name());
      // the arms differ in the plan, or in the pooler in front of the target (--via)
      assertTrue(
          !base.points().get(0).plan().equals(treat.points().get(0).plan())
              || !java.util.Objects.equals(
                  via(a.common() + " " + a.baseline()), via(a.common() + " " + a.treatment())),
          a.name() + ": arms must differ");
    }
  }

  private static String via(String args) {
    AdviseCommand.Arm arm = new AdviseCommand.Arm();
    new picocli.CommandLine(arm).parseArgs(args.trim().split("\\s+"));
    return arm.via;
  }

  private static dev.wg1bench.plan.Matrix parse(String args, List<TargetSpec> targets) {
    AdviseCommand.Arm arm = new AdviseCommand.Arm();
    new picocli.CommandLine(arm).parseArgs(args.trim().split("\\s+"));
    return PlanFactory.build(arm.options, targets);
  }

  @Test
  void adviseMeasuresBothArmsAndGivesAVerdict() throws Exception {
    PgbenchData.reset();
    Path dir = Files.createDirectories(tmp.resolve("advice"));
    Files.writeString(
        dir.resolve("one-vs-ten.properties"),
        "claim=ten updates per op take longer than one\nseed=test\nexpect=lower\n"
            + "common=--clients 2\nbaseline=--workload update1\ntreatment=--workload write10\n");
    Path json = tmp.resolve("advise.json");
    Cli r =
        Cli.run(
            "advise",
            "--advice-dir",
            dir.toString(),
            "--target",
            TestServer.url(),
            "--repeat",
            "3",
            "--forks",
            "0",
            "--duration",
            "600ms",
            "--warmup",
            "0",
            "--seed",
            "3",
            "--output",
            json.toString());
    assertEquals(0, r.exit, r.toString());
    JsonNode run = new ObjectMapper().readTree(json.toFile());
    JsonNode a = run.get("advice").get(0);
    assertEquals("one-vs-ten", a.get("name").asText());
    assertEquals(3, a.get("trialsPerArm").asInt());
    assertTrue(
        a.get("ratio").asDouble() < 1, "write10 ops should be slower than update1 ops: " + a);
    assertTrue(
        a.get("ciLow").asDouble() <= a.get("ratio").asDouble()
            && a.get("ciHigh").asDouble() >= a.get("ratio").asDouble());
    assertTrue(
        Set.of("confirms", "no significant difference", "contradicts")
            .contains(a.get("verdict").asText()));
    assertEquals(6, run.get("trials").size());
    long baseline = 0;
    for (JsonNode t : run.get("trials")) {
      baseline += t.get("point").get("arm").asText().equals("baseline") ? 1 : 0;
    }
    assertEquals(3, baseline);
    assertTrue(r.out.contains("one-vs-ten") && r.out.contains("95% CI"), r.out);
  }

  @Test
  void unknownAdviceIsAUsageError() {
    CliErrorsTest.assertOneLine(
        Cli.run("advise", "--only", "faster-disks"),
        2,
        "--only 'faster-disks' is not a piece of advice; valid:");
  }
}
