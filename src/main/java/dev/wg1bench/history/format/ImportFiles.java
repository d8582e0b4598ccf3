package dev.wg1bench.history.format;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A file's text before a format reads it, and the one-line answer when it is missing, empty or of
 * another kind than the format asked for (a JSON file given as CSV, a wg1bench result given as
 * Otava's).
 */
final class ImportFiles {
  private ImportFiles() {}

  static String text(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new UsageException(file + ": no such file");
    } catch (MalformedInputException e) {
      throw new UsageException(file + ": not a text file (not UTF-8)");
    } catch (IOException e) {
      throw new UsageException(file + ": cannot read: " + e.getMessage());
    }
    if (text.isBlank()) {
      throw new UsageException(file + ": empty file: nothing to import");
    }
    // a byte-order mark would make the first header "\uFEFFtime"
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /** Whether the text is JSON (an object or an array), as far as its first character tells. */
  static boolean looksJson(String text) {
    String t = text.stripLeading();
    return t.startsWith("{") || t.startsWith("[");
  }

  /** Whether the text is a wg1bench result (a JSON object with the result's fields). */
  static boolean looksWg1benchResult(String text) {
    String t = text.stripLeading();
    return t.startsWith("{") && t.contains("\"trials\"");
  }

  /** The line for a file that is of another kind than {@code format} reads. */
  static UsageException otherKind(Path file, String format, String text) {
    String kind =
        looksWg1benchResult(text)
            ? "a wg1bench result file (import it with --format wg1bench)"
            : looksJson(text)
                ? "JSON (an Otava JSON file is imported with --format otava-json)"
                : "not JSON (an Otava CSV file is imported with --format otava-csv)";
    return new UsageException(file + ": not " + format + ": the file is " + kind);
  }
}
