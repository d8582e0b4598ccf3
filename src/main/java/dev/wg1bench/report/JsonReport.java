package dev.wg1bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.wg1bench.result.BenchmarkRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes and reads the JSON result. Writes are atomic: a reader never sees half a file. */
public final class JsonReport {
  public static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  /**
   * Fails before a run, not after it, when the result could not be written: the directory is
   * created and a file tried in it.
   *
   * @return null if writable, else why not
   */
  public static String unwritable(Path file) {
    try {
      if (Files.isDirectory(file)) {
        return "it is a directory";
      }
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Files.delete(Files.createTempFile(dir, ".wg1bench-", ".probe"));
      return null;
    } catch (java.nio.file.FileSystemException e) {
      return "cannot write there ("
          + e.getFile()
          + ": "
          + (e.getReason() != null
              ? e.getReason()
              : e instanceof java.nio.file.AccessDeniedException
                  ? "permission denied"
                  : "cannot be created")
          + ")";
    } catch (IOException | RuntimeException e) {
      return "cannot write there (" + e.getMessage() + ")";
    }
  }

  public static void write(BenchmarkRun run, Path file) {
    writeValue(run, file);
  }

  /** Any result object (e.g. an experiment's report), written atomically with the same mapper. */
  public static void writeValue(Object value, Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".wg1bench-", ".json.tmp");
      try {
        JSON.writeValue(tmp.toFile(), value);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write result " + file + ": " + e.getMessage(), e);
    }
  }

  public static BenchmarkRun read(Path file) {
    try {
      return JSON.readValue(file.toFile(), BenchmarkRun.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read result " + file + ": " + e.getMessage(), e);
    }
  }
}
