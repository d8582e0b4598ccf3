package dev.wg1bench.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;

/**
 * Runs the CLI in this JVM with its standard output captured; standard error stays the test's, so a
 * failing run's one-line message shows in the test's report.
 */
public final class MainOut {
  private MainOut() {}

  /** What a run printed and its exit code. */
  public record Ran(int exit, String out) {}

  public static Ran run(List<String> args) {
    StringWriter o = new StringWriter();
    int exit =
        Main.execute(
            new PrintWriter(o, true),
            new PrintWriter(System.err, true),
            args.toArray(new String[0]));
    return new Ran(exit, o.toString());
  }

  /** A run that must succeed, and the first trial of the result it wrote to {@code json}. */
  public record Trial(String out, JsonNode trial) {}

  public static Trial trial(List<String> args, Path json) throws IOException {
    Ran ran = run(args);
    Assertions.assertEquals(0, ran.exit(), ran.out());
    return new Trial(ran.out(), new ObjectMapper().readTree(json.toFile()).get("trials").get(0));
  }
}
