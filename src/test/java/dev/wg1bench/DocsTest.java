package dev.wg1bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README and the manual hold together: links resolve, and the package list is whole. */
class DocsTest {
  private static List<Path> pages() throws IOException {
    List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
    for (String dir : List.of("docs", "bench/results")) {
      try (Stream<Path> s = Files.walk(Path.of(dir))) {
        s.filter(f -> f.toString().endsWith(".md")).sorted().forEach(out::add);
      }
    }
    return out;
  }

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
  static String anchor(String heading) {
    return heading
        .strip()
        .toLowerCase(java.util.Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }

  private static List<String> anchors(Path page) throws IOException {
    List<String> out = new ArrayList<>();
    boolean code = false;
    for (String l : Files.readAllLines(page)) {
      if (l.startsWith("```")) {
        code = !code;
      } else if (!code && l.startsWith("#")) {
        out.add(anchor(l.replaceFirst("^#+", "")));
      }
    }
    return out;
  }

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages()) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        String link = m.group(1);
        if (link.matches("[a-z]+:.*")) {
          continue; // http(s), mailto: not checked offline
        }
        String file = link.replaceFirst("#.*", "");
        String frag = link.contains("#") ? link.substring(link.indexOf('#') + 1) : null;
        Path target = file.isEmpty() ? page : page.resolveSibling(file).normalize();
        if (!Files.exists(target)) {
          broken.add(page + ": " + link + " (no " + target + ")");
        } else if (frag != null
            && target.toString().endsWith(".md")
            && !anchors(target).contains(frag)) {
          broken.add(page + ": " + link + " (no heading #" + frag + " in " + target + ")");
        }
      }
    }
    assertEquals(List.of(), broken, String.join("\n", broken));
  }

  @Test
  void howItIsBuiltListsEveryPackage() throws IOException {
    String page = Files.readString(Path.of("docs/explanation/architecture.md"));
    try (Stream<Path> s = Files.list(Path.of("src/main/java/dev/wg1bench"))) {
      for (Path p : s.filter(Files::isDirectory).toList()) {
        String name = p.getFileName().toString();
        assertTrue(page.contains("- `" + name + "/`"), "docs/explanation/architecture.md: " + name);
      }
    }
  }

  @Test
  void measurementRecordsAreDated() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("bench/results"))) {
      for (Path p : s.filter(f -> f.toString().endsWith(".md")).toList()) {
        assertTrue(
            p.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-[a-z0-9-]+\\.md"),
            "bench/results/ holds YYYY-MM-DD-topic.md records: " + p);
      }
    }
  }

  @Test
  void theReadmeTeachesInOneScreenfulOrSo() throws IOException {
    long lines = Files.readAllLines(Path.of("README.md")).size();
    assertTrue(lines <= 200, "README.md has " + lines + " lines; the manual is docs/");
  }
}
