package dev.wg1bench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public type and member of the API has javadoc (the API is the whole public surface, and its
 * javadoc is where a default is said). Read from the sources: a public declaration must follow a
 * comment ending in {@code *}{@code /}, annotations between them allowed; an {@code @Override}
 * inherits its documentation.
 */
class ApiJavadocTest {
  private static final Path API = Path.of("src/main/java/dev/wg1bench/api");

  @Test
  void everyPublicDeclarationHasJavadoc() throws IOException {
    List<String> missing = new ArrayList<>();
    try (Stream<Path> files = Files.list(API)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        List<String> lines = Files.readAllLines(f);
        boolean iface = lines.stream().anyMatch(l -> l.startsWith("public interface "));
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i).strip();
          if (isPublic(lines.get(i), iface) && !documented(lines, i)) {
            missing.add(f.getFileName() + ":" + (i + 1) + " " + line);
          }
        }
      }
    }
    assertEquals(List.of(), missing, "public declarations without javadoc");
  }

  /**
   * Every setting of a run description or a comparison (a public method of {@link Wg1bench} or
   * {@code Comparison.Builder} that takes a value and returns the description) says its default in
   * its javadoc, or is deprecated.
   */
  @Test
  void everySettingSaysItsDefault() throws IOException {
    List<String> silent = new ArrayList<>();
    for (String file : List.of("Wg1bench.java", "Comparison.java")) {
      List<String> lines = Files.readAllLines(API.resolve(file));
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).matches("\\s+public (Wg1bench|Builder) \\w+\\(.+\\) \\{")) {
          continue;
        }
        StringBuilder doc = new StringBuilder();
        for (int j = i - 1; j >= 0; j--) {
          doc.append(lines.get(j)).append('\n');
          if (lines.get(j).strip().startsWith("/**")) {
            break;
          }
        }
        String text = doc.toString().toLowerCase(java.util.Locale.ROOT);
        if (!text.contains("default") && !text.contains("deprecated")) {
          silent.add(file + ":" + (i + 1) + " " + lines.get(i).strip());
        }
      }
    }
    assertEquals(List.of(), silent, "settings whose javadoc does not say their default");
  }

  /**
   * A public declaration: marked so, an enum constant, or a member of a public interface (public
   * without the word: a line at member indentation that is not a comment, annotation or brace).
   */
  private static boolean isPublic(String raw, boolean iface) {
    String line = raw.strip();
    if (line.startsWith("public ") || raw.matches("  [A-Z][A-Z0-9_]*[,;(].*")) {
      return true;
    }
    return iface
        && raw.startsWith("  ")
        && !raw.startsWith("   ")
        && !line.isEmpty()
        && !line.startsWith("/")
        && !line.startsWith("*")
        && !line.startsWith("@")
        && !line.startsWith("}");
  }

  /** Whether the lines above {@code i}, past its annotations, end a javadoc comment. */
  private static boolean documented(List<String> lines, int i) {
    for (int j = i - 1; j >= 0; j--) {
      String above = lines.get(j).strip();
      if (above.equals("@Override")) {
        return true;
      }
      if (!above.startsWith("@")) {
        return above.endsWith("*/") && javadoc(lines, j);
      }
    }
    return false;
  }

  /** Whether the comment ending on line {@code end} opens with {@code /**}. */
  private static boolean javadoc(List<String> lines, int end) {
    for (int j = end; j >= 0; j--) {
      String l = lines.get(j).strip();
      if (l.startsWith("/**")) {
        return true;
      }
      if (l.startsWith("/*")) {
        return false;
      }
    }
    return false;
  }
}
