package dev.wg1bench.load.ssb;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Byte-level row formatter shared by the {@code .tbl} and the COPY text output (GENERATOR.md
 * section 7): every field is followed by {@code |}; at the end of a row the {@code .tbl} mode
 * appends a line feed while the COPY mode overwrites the last separator with it.
 *
 * <p>Writes into a reusable byte[] and hands full blocks to the stream, so the hot loops allocate
 * nothing per field.
 */
final class RowWriter {
  static final byte SEP = '|';
  static final byte EOL = '\n';

  /** Room guaranteed before each row; the longest SSB row is well under 300 bytes. */
  private static final int ROW_RESERVE = 1024;

  private final OutputStream out;
  private final boolean trailingSeparator;
  private final byte[] buf;
  private final int limit;
  private int pos;

  RowWriter(OutputStream out, boolean trailingSeparator, int bufferSize) {
    this.out = out;
    this.trailingSeparator = trailingSeparator;
    this.buf = new byte[Math.max(bufferSize, 4 * ROW_RESERVE)];
    this.limit = buf.length - ROW_RESERVE;
  }

  /** Field: verbatim bytes then separator. */
  void str(byte[] b) {
    raw(b);
    buf[pos++] = SEP;
  }

  /** Field: decimal integer then separator. */
  void num(long v) {
    rawNum(v);
    buf[pos++] = SEP;
  }

  /** Field: single character then separator. */
  void chr(byte c) {
    buf[pos++] = c;
    buf[pos++] = SEP;
  }

  /** Ends the current field of composite text (after raw appends). */
  void sep() {
    buf[pos++] = SEP;
  }

  void raw(byte[] b) {
    System.arraycopy(b, 0, buf, pos, b.length);
    pos += b.length;
  }

  void raw(byte[] b, int off, int len) {
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
  }

  void rawByte(byte c) {
    buf[pos++] = c;
  }

  /** Decimal digits without padding (values are non-negative, section 1). */
  void rawNum(long v) {
    if (v < 10) {
      buf[pos++] = (byte) ('0' + v);
      return;
    }
    int len = digits(v);
    int end = pos + len;
    int p = end;
    while (v > 0) {
      buf[--p] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    pos = end;
  }

  /** Decimal digits left-padded with '0' to at least width characters. */
  void rawPadded(long v, int width) {
    int len = Math.max(digits(v), width);
    int end = pos + len;
    int p = end;
    do {
      buf[--p] = (byte) ('0' + (v % 10));
      v /= 10;
    } while (v > 0);
    while (p > pos) {
      buf[--p] = '0';
    }
    pos = end;
  }

  private static int digits(long v) {
    int n = 1;
    while (v >= 10) {
      v /= 10;
      n++;
    }
    return n;
  }

  /** Ends a row; flushes the buffer when it is nearly full. */
  void endRow() throws IOException {
    if (trailingSeparator) {
      buf[pos++] = EOL;
    } else {
      buf[pos - 1] = EOL;
    }
    if (pos > limit) {
      out.write(buf, 0, pos);
      pos = 0;
    }
  }

  /** Writes out buffered bytes (does not flush or close the underlying stream). */
  void drain() throws IOException {
    if (pos > 0) {
      out.write(buf, 0, pos);
      pos = 0;
    }
  }
}
