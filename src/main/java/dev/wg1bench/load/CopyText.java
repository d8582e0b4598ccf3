package dev.wg1bench.load;

/**
 * COPY text-format fields written straight into a byte buffer, so loops that produce millions of
 * rows (init's accounts, the insert_copy workload's ops) allocate nothing per field.
 */
public final class CopyText {
  private CopyText() {}

  /** Signed decimal at {@code p}; returns the position after it. */
  public static int digits(byte[] b, int p, long v) {
    if (v < 0) {
      b[p++] = '-';
      v = -v;
    }
    if (v == 0) {
      b[p] = '0';
      return p + 1;
    }
    int len = 0;
    for (long t = v; t > 0; t /= 10) {
      len++;
    }
    for (int k = p + len - 1; k >= p; k--) {
      b[k] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return p + len;
  }

  /** Verbatim bytes at {@code p}; returns the position after them. */
  public static int put(byte[] b, int p, byte[] x) {
    System.arraycopy(x, 0, b, p, x.length);
    return p + x.length;
  }
}
