package dev.wg1bench.replay.log;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The physical lines of a log, split on LF from raw bytes and decoded one by one, so one bad byte
 * spoils one line, not the file. Every format reader reads through it.
 */
final class LogLines implements Closeable {
  /** A physical line, decoded; its text as Latin-1 when its bytes are not UTF-8. */
  record Line(int number, String text, boolean notUtf8) {}

  /** The name records carry in their file:line, the file name or "stdin". */
  final String name;

  private final InputStream in;
  private final byte[] buffer = new byte[1 << 16];
  private int pos;
  private int end;
  private int read;
  private int number;
  private Line peeked;
  private boolean endedWithNewline = true;
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  LogLines(InputStream in, String name) {
    this.in = in;
    this.name = name;
  }

  /** The number of the line last returned by {@link #next()}. */
  int number() {
    return number;
  }

  /** "name:line" of the line last returned by {@link #next()}. */
  String where() {
    return name + ":" + number;
  }

  Line peek() throws IOException {
    if (peeked == null) {
      peeked = read();
    }
    return peeked;
  }

  Line next() throws IOException {
    Line l = peek();
    peeked = null;
    if (l != null) {
      number = l.number;
    }
    return l;
  }

  /**
   * Whether the line last returned is the file's last and has no newline: a record the server was
   * still writing when the file was copied, rather than one of another format.
   */
  boolean cutOffAtEnd() throws IOException {
    return peek() == null && !endedWithNewline;
  }

  private Line read() throws IOException {
    ByteArrayOutputStream b = null;
    while (true) {
      if (pos == end && !fill()) {
        if (b == null) {
          return null;
        }
        endedWithNewline = false;
        return decode(b.toByteArray(), b.size());
      }
      int nl = indexOfNewline();
      if (nl >= 0) {
        int from = pos;
        pos = nl + 1;
        endedWithNewline = true;
        if (b == null) {
          return decode(Arrays.copyOfRange(buffer, from, nl), nl - from);
        }
        b.write(buffer, from, nl - from);
        return decode(b.toByteArray(), b.size());
      }
      if (b == null) {
        b = new ByteArrayOutputStream(Math.max(256, end - pos));
      }
      b.write(buffer, pos, end - pos);
      pos = end;
    }
  }

  private int indexOfNewline() {
    for (int i = pos; i < end; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private boolean fill() throws IOException {
    int n;
    do {
      n = in.read(buffer, 0, buffer.length);
    } while (n == 0);
    pos = 0;
    end = Math.max(n, 0);
    return n > 0;
  }

  private Line decode(byte[] bytes, int len) {
    if (len > 0 && bytes[len - 1] == '\r') {
      len--;
    }
    read++;
    try {
      String s = utf8.reset().decode(ByteBuffer.wrap(bytes, 0, len)).toString();
      return new Line(read, s, false);
    } catch (CharacterCodingException e) {
      return new Line(read, new String(bytes, 0, len, StandardCharsets.ISO_8859_1), true);
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
