package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every NAME=VALUE option takes its value as given, quotes included, without a "[picocli WARN]"
 * (issue 56: {@code --attr 'note=say "hi'} printed two of them).
 */
class KeyValueOptionsTest {
  private static final List<List<String>> COMMANDS =
      List.of(
          List.of("--workload", "tpcb", "--history", "--attr"),
          List.of("--workload", "tpcb", "-D"),
          List.of("--workload", "tpcb", "--define"),
          List.of("--workload", "tpcb", "--set"),
          List.of("history", "add", "r.json", "--attr"),
          List.of("--workload", "tpcb", "--jdbc-property"),
          List.of("--workload", "tpcb", "--table-option"),
          List.of("history", "export", "--format", "csv", "--where"),
          List.of("replay", "x.log", "--map-database"));

  /** The value the command's last option got for KEY, with what went to stderr. */
  private static String parsed(List<String> command, String pair) {
    List<String> args = new ArrayList<>(command);
    args.add(pair);
    String[] a = args.toArray(String[]::new);
    PrintStream old = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine.ParseResult pr;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      pr = Main.commandLine(a).parseArgs(a);
    } finally {
      System.setErr(old);
    }
    String warnings = err.toString(StandardCharsets.UTF_8);
    assertFalse(warnings.contains("picocli"), command + " " + pair + ": " + warnings);
    while (pr.hasSubcommand()) {
      pr = pr.subcommand();
    }
    Map<String, String> m = pr.commandSpec().findOption(command.get(command.size() - 1)).getValue();
    return m.get(pair.substring(0, pair.indexOf('=')));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "say \"hi",
        "\"quoted\"",
        "a\"b\"c\"",
        "'single",
        "a=b=c",
        "a,b",
        "",
        " spaced ",
        "\"=\""
      })
  void valuesAreTakenAsGiven(String value) {
    for (List<String> command : COMMANDS) {
      assertEquals(value, parsed(command, "k=" + value), command.toString());
    }
  }

  /** What checks the options a parse matched (advise's replay arms) still sees them. */
  @Test
  void theyCountAsMatched() {
    String[] a = {"--workload", "tpcb", "-D", "x=1", "--clients", "2"};
    CommandLine.ParseResult pr = Main.commandLine(a).parseArgs(a);
    List<String> names =
        KeyValues.matched(pr).stream().map(CommandLine.Model.OptionSpec::longestName).toList();
    assertTrue(names.containsAll(List.of("--define", "--clients", "--workload")), names.toString());
    assertFalse(names.contains("--set"), names.toString());
  }

  @Test
  void aPairWithoutEqualsIsOneLineInTheOptionsWords() {
    Cli r = Cli.run("history", "add", "--attr", "note", "r.json");
    CliErrorsTest.assertOneLine(r, 2, "--attr 'note' must be KEY=VALUE, e.g. --attr note=VALUE");
    r = Cli.run("history", "add", "r.json", "--attr");
    CliErrorsTest.assertOneLine(r, 2, "Missing required parameter for option '--attr' (KEY=VALUE)");
  }
}
