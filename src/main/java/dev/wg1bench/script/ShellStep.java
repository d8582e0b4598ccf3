package dev.wg1bench.script;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code \shell command [args]} or {@code \setshell var command [args]}, run as pgbench runs them:
 * the words joined by spaces (a {@code :name} word replaced by the variable's text, a {@code
 * ::word} by {@code :word}) and handed to {@code /bin/sh -c}.
 *
 * <p>{@code \shell}: the command's output goes to this process's, and a non-zero exit status fails
 * the op ("could not launch shell command"). {@code \setshell}: the first line of its output must
 * be an integer (surrounding white space allowed), stored into the variable; no output fails with
 * "could not read result of shell command", anything else with "shell command must return an
 * integer"; its exit status is not looked at.
 *
 * @param words each word's literal text, or null where {@code slots} names a variable
 * @param slots the variable slot of each {@code :name} word, -1 for a literal one
 * @param names each word's variable name (for messages), null for a literal one
 * @param target the slot {@code \setshell} assigns, -1 for {@code \shell}
 */
public record ShellStep(
    int line, String source, String[] words, int[] slots, String[] names, int target)
    implements Step {

  /** pgbench reads the result with fgets() into a 64-byte buffer: at most 63 characters. */
  private static final int RESULT_CHARS = 63;

  private static final File DEV_NULL = new File("/dev/null");

  /** Runs the command; for \setshell stores the integer it printed. */
  public void execute(EvalContext ctx) {
    Object[] vars = ctx.slots();
    StringBuilder cmd = new StringBuilder();
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        cmd.append(' ');
      }
      if (slots[i] < 0) {
        cmd.append(words[i]);
      } else {
        Object v = vars[slots[i]];
        if (v == Values.UNDEFINED) {
          throw fail("undefined variable \":" + names[i] + "\"");
        }
        cmd.append(Values.toText(v));
      }
    }
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", cmd.toString());
    pb.redirectInput(DEV_NULL);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    if (target < 0) {
      pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
      try {
        Process p = pb.start();
        if (p.waitFor() != 0) {
          throw fail("could not launch shell command");
        }
      } catch (IOException e) {
        throw fail("could not launch shell command");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw fail("could not launch shell command (interrupted)");
      }
      return;
    }
    String first;
    try {
      Process p = pb.start();
      try (InputStream in = p.getInputStream()) {
        first = firstLine(in);
        in.transferTo(OutputStream.nullOutputStream());
      }
      p.waitFor();
    } catch (IOException e) {
      throw fail("could not launch shell command");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail("could not read result of shell command (interrupted)");
    }
    if (first == null) {
      throw fail("could not read result of shell command");
    }
    Long v = strtolInt(first);
    if (v == null) {
      throw fail("shell command must return an integer (not \"" + first + "\")");
    }
    vars[target] = v;
  }

  private ScriptRuntimeException fail(String what) {
    return new ScriptRuntimeException(
        source, line, "\\" + (target < 0 ? "shell" : "setshell") + ": " + words[0] + ": " + what);
  }

  /** What fgets() reads: up to and including the first newline, at most 63 chars; null at EOF. */
  private static String firstLine(InputStream in) throws IOException {
    byte[] buf = new byte[RESULT_CHARS];
    int n = 0;
    while (n < RESULT_CHARS) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      buf[n++] = (byte) b;
      if (b == '\n') {
        break;
      }
    }
    return n == 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
  }

  /**
   * pgbench's check: {@code (int) strtol(res, &end, 10)}, then only white space may follow. As in
   * C, leading white space and a sign are accepted, a line with no digits at all reads as 0 when it
   * is only white space, and the value is truncated to 32 bits. Null when pgbench refuses it.
   */
  static Long strtolInt(String res) {
    int n = res.length();
    int i = 0;
    while (i < n && Character.isWhitespace(res.charAt(i))) {
      i++;
    }
    boolean neg = false;
    if (i < n && (res.charAt(i) == '+' || res.charAt(i) == '-')) {
      neg = res.charAt(i) == '-';
      i++;
    }
    int digits = i;
    long v = 0;
    boolean overflow = false;
    while (i < n && res.charAt(i) >= '0' && res.charAt(i) <= '9') {
      int d = res.charAt(i) - '0';
      if (v > (Long.MAX_VALUE - d) / 10) {
        overflow = true;
      } else {
        v = v * 10 + d;
      }
      i++;
    }
    int end;
    if (i == digits) {
      end = 0; // no conversion: strtol leaves end at the start of the string
      v = 0;
    } else {
      end = i;
      v = overflow ? (neg ? Long.MIN_VALUE : Long.MAX_VALUE) : (neg ? -v : v);
    }
    while (end < n && Character.isWhitespace(res.charAt(end))) {
      end++;
    }
    if (n == 0 || end != n) {
      return null;
    }
    return (long) (int) v;
  }
}
