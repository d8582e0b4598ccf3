package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/** The run command's help in headed sections: every option listed once, none lost. */
class HelpSectionsTest {
  @Test
  void helpIsInHeadedSectionsAndListsEveryVisibleOptionOnce() {
    Cli r = Cli.run("--help");
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.out.startsWith("Usage: wg1bench [OPTIONS] [COMMAND]"), r.out);
    int last = -1;
    for (String heading : HelpSections.SECTIONS.keySet()) {
      int at = r.out.indexOf("\n" + heading + ":\n");
      assertTrue(at > last, "heading missing or out of order: " + heading + "\n" + r.out);
      last = at;
    }
    CommandLine cl = Main.commandLine();
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.hidden()) {
        continue;
      }
      String shown = String.join(", ", o.names());
      long times =
          r.out
              .lines()
              .filter(
                  l ->
                      l.matches(" {2,6}-.*")
                          && l.strip()
                              .matches(java.util.regex.Pattern.quote(shown) + "([= \\[].*)?"))
              .count();
      assertEquals(1, times, shown + " listed " + times + " times\n" + r.out);
    }
  }

  @Test
  void theMapNamesOnlyOptionsThatExistAndEachOnce() {
    Set<String> names =
        Main.commandLine().getCommandSpec().options().stream()
            .flatMap(o -> java.util.Arrays.stream(o.names()))
            .collect(Collectors.toSet());
    List<String> mapped = HelpSections.SECTIONS.values().stream().flatMap(List::stream).toList();
    for (String n : mapped) {
      assertTrue(names.contains(n), "the help sections name an option that is gone: " + n);
    }
    assertEquals(mapped.size(), Set.copyOf(mapped).size(), "an option under two headings");
  }

  @Command(name = "x")
  static final class WithANewOption {
    @Option(names = "--target")
    String target;

    @Option(names = "--brand-new", description = "An option nobody mapped yet.")
    String brandNew;
  }

  @Test
  void anOptionTheMapDoesNotNameIsListedUnderOther() {
    CommandLine cl = HelpSections.install(new CommandLine(new WithANewOption()));
    Map<String, List<OptionSpec>> g = HelpSections.grouped(cl.getCommandSpec());
    assertEquals(
        "--brand-new", g.get(HelpSections.OTHER).get(0).longestName(), g.keySet().toString());
    String help = cl.getUsageMessage();
    assertTrue(help.contains("\nOther options:\n      --brand-new"), help);
    assertTrue(help.contains("\nTargets"), help);
  }
}
