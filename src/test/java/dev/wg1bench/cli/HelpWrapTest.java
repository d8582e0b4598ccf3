package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every command's {@code --help}, rendered at 80 and at 120 columns, wraps only between words.
 * picocli wraps a description at a line-break opportunity, which is not only a space: it also
 * breaks after ':' or '-', so a long token can be cut. A line pair {@code (line, next)} is a bad
 * break when:
 *
 * <ul>
 *   <li><b>inside a URL</b>: {@code line} ends with {@code "postgresql:"} or with ':' while {@code
 *       next} starts (after its indent) with {@code "//"};
 *   <li><b>inside a word</b>: the last token of {@code line} ends with a letter and a '-' (a
 *       hyphenated word such as "side-by-side" cut after one of its hyphens) and {@code next}
 *       starts with a lowercase letter (a lone "-" at the line's end is not one);
 *   <li><b>inside a parenthesis</b>: the last token of {@code line} opens a parenthesis and leaves
 *       it as a fragment of at most one letter and a '.', i.e. it is {@code "("}, {@code "(a"} or
 *       {@code "(e."} with no ')', and {@code next} is not blank (the text goes on below: "(a" /
 *       "container started for the run,").
 * </ul>
 *
 * A deliberate line break between paragraphs or list items is never one of these: it ends a
 * sentence or a list item, not a URL, a word or an opening parenthesis.
 */
class HelpWrapTest {
  private static final Pattern HYPHEN_CUT = Pattern.compile(".*[A-Za-z]-$");
  private static final Pattern PAREN_FRAGMENT = Pattern.compile("\\([A-Za-z]?\\.?");

  @ParameterizedTest
  @ValueSource(ints = {80, 120})
  void noHelpLineIsBrokenInsideAUrlAWordOrAParenthesis(int width) {
    List<String> bad = new ArrayList<>();
    for (CommandLine cl : commands(Main.commandLine())) {
      cl.setUsageHelpAutoWidth(false);
      cl.setUsageHelpWidth(width);
      String name = cl.getCommandSpec().qualifiedName(" ");
      List<String> lines = cl.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList();
      for (int i = 0; i + 1 < lines.size(); i++) {
        String why = badBreak(lines.get(i).stripTrailing(), lines.get(i + 1).strip());
        if (why != null) {
          bad.add(
              name
                  + " at "
                  + width
                  + ", "
                  + why
                  + ":\n  "
                  + lines.get(i)
                  + "\n  "
                  + lines.get(i + 1));
        }
      }
    }
    assertTrue(bad.isEmpty(), bad.size() + " bad breaks:\n" + String.join("\n", bad));
  }

  @Test
  void theRulesCatchTheBreaksTheyName() {
    assertTrue("inside a URL".equals(badBreak("  x, postgresql:", "//USER@HOST")));
    assertTrue("inside a URL".equals(badBreak("  jdbc:tc:", "//HOST")));
    assertTrue("inside a word".equals(badBreak("  a side-by-", "side comparison")));
    assertTrue("inside a parenthesis".equals(badBreak("  TAG:///DB (a", "container started")));
    assertTrue("inside a parenthesis".equals(badBreak("  setting (e.", "g. x=1)")));
    assertTrue(badBreak("  ends a sentence.", "Next one") == null);
    assertTrue(badBreak("  with -t (a run)", "goes on") == null);
    assertTrue(badBreak("  repeatable, -", "a flag") == null);
  }

  /** Why {@code line} followed by {@code next} (stripped) is a bad break, or null. */
  static String badBreak(String line, String next) {
    if (next.isEmpty()) {
      return null;
    }
    String last = line.substring(line.lastIndexOf(' ') + 1);
    if (line.endsWith("postgresql:") || (line.endsWith(":") && next.startsWith("//"))) {
      return "inside a URL";
    }
    if (HYPHEN_CUT.matcher(last).matches() && Character.isLowerCase(next.charAt(0))) {
      return "inside a word";
    }
    if (PAREN_FRAGMENT.matcher(last).matches()) {
      return "inside a parenthesis";
    }
    return null;
  }

  private static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>(List.of(root));
    root.getSubcommands().values().forEach(s -> all.addAll(commands(s)));
    return all;
  }
}
