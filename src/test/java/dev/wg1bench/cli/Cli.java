package dev.wg1bench.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

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

  @Override
  public String toString() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
