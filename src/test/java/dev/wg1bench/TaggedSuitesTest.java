package dev.wg1bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A test tagged {@code java21} is left out of the default Surefire execution and run only by the
 * {@code java21} one, which lists its classes by name (so that no other class starts a server
 * there): a tagged class missing from that list would run nowhere, silently. This test reads both.
 */
class TaggedSuitesTest {
  private static final Pattern INCLUDE = Pattern.compile("<include>\\*\\*/(\\w+)\\.java</include>");

  @Test
  void everyJava21TaggedClassIsInTheJava21Execution() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    int at = pom.indexOf("<id>java21</id>");
    String execution = pom.substring(at, pom.indexOf("</execution>", at));
    Set<String> listed = new TreeSet<>();
    Matcher m = INCLUDE.matcher(execution);
    while (m.find()) {
      listed.add(m.group(1));
    }
    Set<String> tagged = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        if (Files.readString(f).contains("@Tag(\"java21\")")) {
          tagged.add(f.getFileName().toString().replace(".java", ""));
        }
      }
    }
    assertEquals(tagged, listed, "the java21 execution's <include>s against the tagged classes");
  }
}
