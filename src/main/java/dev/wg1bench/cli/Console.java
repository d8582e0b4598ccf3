package dev.wg1bench.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A command's standard output and error are picocli's ({@code commandLine().getOut()} and {@code
 * getErr()}): {@link Main} sets them to the process's streams, a test to its own writers, so that
 * two commands run in one JVM at once print each to its own. The engine's printers take a {@link
 * PrintStream} (JMH's output format and the {@code loadFresh} of a user's workload take one, and
 * users implement that), so a command hands them its writer as a stream: each write is decoded back
 * into characters and reaches the writer at once, in the order printed.
 */
final class Console {
  private Console() {}

  /** The command's standard output, as the engine's printers take it. */
  static PrintStream out(CommandSpec spec) {
    return stream(spec.commandLine().getOut());
  }

  /** The command's standard error, as the engine's printers take it. */
  static PrintStream err(CommandSpec spec) {
    return stream(spec.commandLine().getErr());
  }

  /**
   * {@code w} as an autoflushing stream: every print flushes {@code w}, as System.out's reach the
   * terminal at once (a progress line without its newline included). UTF-8 between the two loses no
   * character; {@code w} encodes in its own charset.
   */
  static PrintStream stream(PrintWriter w) {
    return new PrintStream(new Decoding(w), true, StandardCharsets.UTF_8);
  }

  /** Bytes in, characters out: a character split across two writes waits for its last byte. */
  private static final class Decoding extends OutputStream {
    private final PrintWriter w;
    private final CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final CharBuffer chars = CharBuffer.allocate(1024);
    private ByteBuffer pending = ByteBuffer.allocate(0);

    Decoding(PrintWriter w) {
      this.w = w;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      ByteBuffer in;
      if (pending.hasRemaining()) {
        in = ByteBuffer.allocate(pending.remaining() + len);
        in.put(pending).put(b, off, len).flip();
      } else {
        in = ByteBuffer.wrap(b, off, len);
      }
      while (true) {
        boolean overflow = decoder.decode(in, chars, false).isOverflow();
        chars.flip();
        w.append(chars);
        chars.clear();
        if (!overflow) {
          break;
        }
      }
      pending = in.hasRemaining() ? ByteBuffer.allocate(in.remaining()).put(in).flip() : in;
    }

    @Override
    public synchronized void flush() {
      w.flush();
    }
  }
}
