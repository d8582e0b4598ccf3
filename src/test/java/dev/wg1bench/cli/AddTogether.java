package dev.wg1bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A {@code wg1bench} command in a process of its own that starts when told, for the tests of
 * writers adding at once: prints {@code ready}, waits (a minute at most) for the file GO to exist,
 * then runs the command (args after GO) and exits with its code. JVMs start at their own pace; the
 * GO file makes their adds overlap.
 */
public final class AddTogether {
  private AddTogether() {}

  public static void main(String[] args) throws Exception {
    Path go = Path.of(args[0]);
    System.out.println("ready");
    System.out.flush();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!Files.exists(go)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no go file " + go + " within a minute");
      }
      Thread.onSpinWait();
    }
    int code = Main.execute(Arrays.copyOfRange(args, 1, args.length));
    System.out.flush();
    System.exit(code);
  }
}
