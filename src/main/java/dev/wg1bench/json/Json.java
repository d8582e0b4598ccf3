package dev.wg1bench.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The project's one JSON mapper, for run results, trial files, experiments, SSB queries and advice
 * alike: java.time values as ISO text, files indented, writes through {@link OutputFile}.
 */
public final class Json {
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

  /**
   * The mapper results are read with (report, diff, merge, advise, history add and import): the
   * same as {@link #MAPPER}, but a figure must be a finite JSON number ({@link FiniteNumbers}), and
   * a count an integer (no "5" nor 5.0 nor 1e30 taken for one), so a result whose numbers are not
   * numbers is refused in one line naming the field, never read as NaN, infinity or 0.
   */
  public static final ObjectMapper RESULTS = results();

  private static ObjectMapper results() {
    JsonMapper m =
        JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(FiniteNumbers.module())
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();
    m.coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    return m;
  }

  /** One value per line (progress lines between JVMs): the same mapper, not indented. */
  public static final ObjectWriter LINE =
      MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  /**
   * Fails before a run, not after it, when a result could not be written (see {@link
   * OutputFile#unwritable}).
   *
   * @return null if writable, else why not
   */
  public static String unwritable(Path file) {
    return OutputFile.unwritable(file);
  }

  /** A file that is not special: the directory is created and a file tried in it. */
  static String unwritableFile(Path file) {
    try {
      if (Files.isDirectory(file)) {
        return "it is a directory";
      }
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Files.delete(Files.createTempFile(dir, ".wg1bench-", ".probe"));
      return null;
    } catch (FileSystemException e) {
      return "cannot write there ("
          + e.getFile()
          + ": "
          + (e.getReason() != null
              ? e.getReason()
              : e instanceof AccessDeniedException ? "permission denied" : "cannot be created")
          + ")";
    } catch (IOException | RuntimeException e) {
      return "cannot write there (" + e.getMessage() + ")";
    }
  }

  /** {@code value} as the indented JSON {@link #write} puts in a file. */
  public static String text(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code value} to {@code file} as {@link OutputFile} does: atomically (a temporary file
   * moved into place), a guarded name never over another's file, a special file in place; a result
   * that cannot be written is saved elsewhere and the run fails with one line saying where.
   *
   * @return the file written (a guarded name's {@code -2} when another run took the name) and
   *     whether a file there was replaced
   */
  public static OutputFile.Written write(Object value, Path file) {
    byte[] content;
    try {
      content = MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write JSON: " + e.getMessage(), e);
    }
    return OutputFile.write(file, content, "result");
  }

  public static <T> T read(Path file, Class<T> type) {
    try {
      return MAPPER.readValue(file.toFile(), type);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read result " + file + ": " + e.getMessage(), e);
    }
  }
}
