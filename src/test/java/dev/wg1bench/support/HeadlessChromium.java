package dev.wg1bench.support;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium (Debian's package) for the tests that look at a page as a browser lays it out:
 * found on the PATH, run with a profile of its own (other Chromiums may be running), a fixed window
 * and a deadline.
 */
public final class HeadlessChromium {
  /** The browser on the PATH, or null where none is installed (the tests then skip). */
  public static final String PATH = onPath("chromium", "chromium-browser", "google-chrome");

  private HeadlessChromium() {}

  /**
   * Runs Chromium headless at {@code width} × {@code height} with {@code args} (a --dump-dom or a
   * --screenshot and the page), its profile and output under {@code dir}; returns its stdout.
   */
  public static String run(Path dir, int width, int height, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(PATH);
    cmd.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--user-data-dir=" + Files.createTempDirectory(dir, "profile"),
            "--window-size=" + width + "," + height));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "chromium", ".out");
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish in 90 s: " + cmd);
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("chromium exit " + p.exitValue() + ": " + cmd);
    }
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private static String onPath(String... names) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String name : names) {
      for (String d : path.split(File.pathSeparator)) {
        Path f = Path.of(d, name);
        if (Files.isExecutable(f)) {
          return f.toString();
        }
      }
    }
    return null;
  }
}
