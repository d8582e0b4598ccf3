package dev.wg1bench.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Pattern;

/**
 * Runs the CLI in this JVM with stdout and stderr captured: the command line's own writers
 * (picocli's setOut/setErr), not the process's streams, so runs on several threads at once each
 * capture only their own output.
 */
final class Cli {
  final int exit;
  final String out;
  final String err;

  private Cli(int exit, String out, String err) {
    this.exit = exit;
    this.out = out;
    this.err = err;
  }

  static Cli run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = Main.execute(new PrintWriter(o, true), new PrintWriter(e, true), args);
    return new Cli(code, o.toString(), e.toString());
  }

  /**
   * The exit code, then the lines that say what went wrong (an arm that could not run, an error, an
   * exception), then both streams whole: a long run's output is cut in the middle where CI shows
   * it, and the cause must survive the cut.
   */
  @Override
  public String toString() {
    StringBuilder why = new StringBuilder();
    for (String line : (out + err).split("\n")) {
      if (FAILURE_LINE.matcher(line).find()) {
        why.append("  > ").append(line).append('\n');
      }
    }
    return "exit "
        + exit
        + "\n--- lines that name a failure\n"
        + why
        + "--- stdout\n"
        + out
        + "--- stderr\n"
        + err;
  }

  private static final Pattern FAILURE_LINE =
      Pattern.compile(
          "could not run|\\berror\\b|Exception|failed: |broken", Pattern.CASE_INSENSITIVE);
}
