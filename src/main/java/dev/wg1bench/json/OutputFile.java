package dev.wg1bench.json;

import dev.wg1bench.plan.RunFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a result reaches its file, so that none is lost and none overwritten unasked:
 *
 * <ul>
 *   <li>a <em>guarded</em> name (the default {@code results/TIMESTAMP-NAME.json}, or an {@code -o}
 *       file given without {@code --force}) is created exclusively: when another run took the name
 *       first (two runs in the same second), this one takes {@code NAME-2.json}, {@code -3}, and so
 *       on; later writes of the same run go to the name it took;
 *   <li>a special file ({@code /dev/null}, {@code /dev/stdout}, a FIFO, a terminal) is written in
 *       place, never renamed over or replaced, whoever runs it (root included);
 *   <li>anything else is written next to the file and renamed into place (a reader never sees half
 *       a file), replacing a file there, which the line then says;
 *   <li>when it cannot be written (a full disk, a directory gone or made read-only mid-run) the
 *       content is saved to a file in the temporary directory, or printed on stderr when even that
 *       fails, and the run fails with one line saying where it is.
 * </ul>
 */
public final class OutputFile {
  private OutputFile() {}

  /** Guarded names, each with the name its run took for it once written (null until then). */
  private static final Map<Path, Claim> GUARDED = new ConcurrentHashMap<>();

  /** The file a guarded name was created as; a second write of the same run replaces its own. */
  private static final class Claim {
    volatile Path taken;
  }

  /** Where a content went: the file, and whether a file already there was replaced. */
  public record Written(Path path, boolean replaced) {
    @Override
    public String toString() {
      return path + (replaced ? " (replaced the file there)" : "");
    }
  }

  /** Makes {@code file} a name this run creates without overwriting anything (see above). */
  public static Path guard(Path file) {
    // a new run in this JVM (a test, the Java API) guards the name anew: it takes its own file
    GUARDED.put(key(file), new Claim());
    return file;
  }

  /** The name a guarded file was written under (its own name until then, and for any other). */
  public static Path actual(Path file) {
    Claim c = file == null ? null : GUARDED.get(key(file));
    return c != null && c.taken != null ? c.taken : file;
  }

  /** An existing file that is not a regular file or a directory: a device, a FIFO, a socket. */
  public static boolean special(Path file) {
    if (stream(file) != null) {
      return true;
    }
    return Files.exists(file) && !Files.isRegularFile(file) && !Files.isDirectory(file);
  }

  /** Writes {@code content} to {@code file} as above; what cannot be written fails the run. */
  public static Written write(Path file, byte[] content, String what) {
    try {
      return writeOrThrow(file, content);
    } catch (IOException | RuntimeException e) {
      throw new RunFailure(cannot(what, file, e) + "; " + fallback(content, file, what), e);
    }
  }

  private static Written writeOrThrow(Path file, byte[] content) throws IOException {
    OutputStream std = stream(file);
    if (std != null) {
      std.write(content);
      if (content.length > 0 && content[content.length - 1] != '\n') {
        std.write('\n'); // the console's next line starts on its own line
      }
      std.flush();
      return new Written(file, false);
    }
    if (special(file)) {
      // in place: no temporary file beside a device, never a rename over it
      try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.WRITE)) {
        o.write(content);
      }
      return new Written(file, false);
    }
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".wg1bench-", ".tmp");
    try {
      Files.write(tmp, content);
      Claim c = GUARDED.get(key(file));
      boolean replaced = c == null && Files.exists(file);
      Path target = c != null ? claim(file, c) : file;
      if (Files.isSymbolicLink(target)) {
        // a link the user keeps (latest.json -> a run): written through, the link stays
        Files.write(target, content, StandardOpenOption.TRUNCATE_EXISTING);
      } else {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
      return new Written(target, replaced);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The guarded name's file, created exclusively the first time: {@code NAME.json}, else {@code
   * NAME-2.json} and on; the empty file holds the name until the content is renamed over it.
   */
  private static Path claim(Path file, Claim c) throws IOException {
    if (c.taken != null) {
      return c.taken;
    }
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String stem = dot > 0 ? name.substring(0, dot) : name;
    String ext = dot > 0 ? name.substring(dot) : "";
    for (int n = 1; ; n++) {
      Path candidate = n == 1 ? file : file.resolveSibling(stem + "-" + n + ext);
      try {
        Files.createFile(candidate);
      } catch (FileAlreadyExistsException e) {
        continue;
      }
      c.taken = candidate;
      return candidate;
    }
  }

  /**
   * Null if {@code file} can take a result, else why not: a special file must be writable; for any
   * other the directory is created and a file tried in it.
   */
  public static String unwritable(Path file) {
    if (stream(file) != null) {
      return null;
    }
    if (special(file)) {
      return Files.isWritable(file) ? null : "cannot write there (permission denied)";
    }
    return Json.unwritableFile(file);
  }

  /** /dev/stdout and /dev/stderr are this process's own streams, whatever they point to. */
  private static OutputStream stream(Path file) {
    String f = file.toString();
    if (f.equals("/dev/stdout") || f.equals("/dev/fd/1") || f.equals("/proc/self/fd/1")) {
      return System.out;
    }
    if (f.equals("/dev/stderr") || f.equals("/dev/fd/2") || f.equals("/proc/self/fd/2")) {
      return System.err;
    }
    return null;
  }

  private static Path key(Path file) {
    return file.toAbsolutePath().normalize();
  }

  private static String cannot(String what, Path file, Exception e) {
    String why =
        e instanceof FileSystemException f && f.getReason() != null
            ? f.getReason()
            : e instanceof AccessDeniedException ? "permission denied" : e.getMessage();
    return "cannot write the " + what + " to " + file + " (" + why + ")";
  }

  /** The content saved where it can be: a file in the temporary directory, else stderr. */
  private static String fallback(byte[] content, Path file, String what) {
    String name = file.getFileName() == null ? "result" : file.getFileName().toString();
    try {
      Path saved =
          Files.createTempFile(
              "wg1bench-" + name.replaceFirst("\\.[^.]*$", "") + "-", suffix(name, what));
      Files.write(saved, content);
      return "saved to " + saved + " instead";
    } catch (IOException | RuntimeException e) {
      System.err.write(content, 0, content.length);
      System.err.println();
      System.err.flush();
      return "it follows on stderr (the temporary directory could not take it either)";
    }
  }

  /** The file's own extension, else the content's: a device's name has none. */
  private static String suffix(String name, String what) {
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      return name.substring(dot);
    }
    return switch (what) {
      case "result" -> ".json";
      case "csv" -> ".csv";
      default -> ".txt";
    };
  }
}
