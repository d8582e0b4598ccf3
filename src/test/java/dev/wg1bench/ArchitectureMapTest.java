package dev.wg1bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The architecture page draws the layers ArchitectureTest enforces, not a picture of its own: the
 * block between the page's markers must be the one rendered here from {@link
 * ArchitectureTest#LAYERS}. A layer moved in the rules without the page (or the page without the
 * rules) fails with the block to paste.
 */
class ArchitectureMapTest {

  static final Path PAGE = Path.of("docs/explanation/architecture.md");
  static final String BEGIN =
      "<!-- layers: drawn from ArchitectureTest.LAYERS, checked by ArchitectureMapTest -->";
  static final String END = "<!-- /layers -->";

  /**
   * The layers top to bottom, each with its packages and why; an arrow points to what a layer may
   * import.
   */
  static String render() {
    StringBuilder b = new StringBuilder("```\n");
    int width =
        ArchitectureTest.LAYERS.stream().mapToInt(l -> packages(l).length()).max().orElse(0);
    for (int i = 0; i < ArchitectureTest.LAYERS.size(); i++) {
      ArchitectureTest.Layer l = ArchitectureTest.LAYERS.get(i);
      if (i > 0) {
        b.append("  ▼\n");
      }
      b.append(
          String.format(
              Locale.ROOT, "%-12s %-" + width + "s  %s%n", l.name(), packages(l), l.why()));
    }
    return b.append("```\n").toString();
  }

  private static String packages(ArchitectureTest.Layer l) {
    return String.join(
        ", ", l.packages().stream().map(p -> p.isEmpty() ? "(dev.wg1bench)" : p).toList());
  }

  @Test
  void thePageDrawsTheLayersTheRulesEnforce() throws Exception {
    String page = Files.readString(PAGE);
    int from = page.indexOf(BEGIN);
    int to = page.indexOf(END);
    assertTrue(from >= 0 && to > from, PAGE + " has no block between " + BEGIN + " and " + END);
    String drawn = page.substring(from + BEGIN.length(), to).strip() + "\n";
    assertEquals(render(), drawn, PAGE + ": paste this block between the markers:\n" + render());
  }
}
