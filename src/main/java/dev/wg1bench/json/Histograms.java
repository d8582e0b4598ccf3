package dev.wg1bench.json;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * HdrHistograms as results carry them: compressed and base64-encoded, so saved results can be
 * merged and re-analysed exactly instead of through their printed percentiles.
 */
public final class Histograms {
  private Histograms() {}

  public static String encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
  }

  /** The histogram {@link #encode} wrote; microsecond values for latencies. */
  public static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
    }
  }
}
