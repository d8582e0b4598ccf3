package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line that starts with a subcommand builds only that subcommand's model; it must be the
 * same command as in the whole model, under the same qualified name.
 */
class LeanStartTest {
  @Test
  void everySubcommandHasALeanPath() {
    var whole = Main.commandLine().getSubcommands().keySet();
    assertEquals(new TreeSet<>(whole), new TreeSet<>(Main.SUBCOMMANDS.keySet()));
  }

  @Test
  void leanPathIsTheSameCommand() {
    for (String name : Main.SUBCOMMANDS.keySet()) {
      CommandLine lean = Main.commandLine(name).getSubcommands().get(name);
      CommandLine full = Main.commandLine().getSubcommands().get(name);
      assertEquals(full.getCommandSpec().qualifiedName(), lean.getCommandSpec().qualifiedName());
      assertEquals(usage(full), usage(lean), name);
    }
  }

  @Test
  void leanPathKeepsTheOneLineErrors() {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine("init", "--scale", "x");
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("init", "--scale", "x");
    assertEquals(2, code);
    assertTrue(
        err.toString().startsWith("wg1bench: Invalid value for option '--scale'"), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
  }

  private static String usage(CommandLine cl) {
    StringWriter w = new StringWriter();
    cl.usage(new PrintWriter(w));
    return w.toString();
  }
}
