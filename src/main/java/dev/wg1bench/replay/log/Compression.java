package dev.wg1bench.replay.log;

import dev.wg1bench.plan.RunFailure;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorInputStream;

/**
 * The compressions logs are kept in, told by their magic bytes rather than the file name: a rotated
 * log renamed, or piped through stdin, has none. Each decompresses concatenated streams whole
 * ({@code cat a.gz b.gz}, or a log appended to after compression), as the command-line tools do.
 */
enum Compression {
  GZIP("gzip", new byte[] {0x1f, (byte) 0x8b}),
  BZIP2("bzip2", new byte[] {'B', 'Z', 'h'}),
  XZ("xz", new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0}),
  ZSTD("zstd", new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd});

  /** The most bytes any magic needs. */
  static final int MAGIC_LENGTH = 6;

  final String label;
  private final byte[] magic;

  Compression(String label, byte[] magic) {
    this.label = label;
    this.magic = magic;
  }

  /** The compression whose magic {@code head} (the first bytes of a file) starts with, or null. */
  static Compression of(byte[] head) {
    for (Compression c : values()) {
      int n = c.magic.length;
      if (head.length >= n && Arrays.equals(head, 0, n, c.magic, 0, n)) {
        return c;
      }
    }
    return null;
  }

  /**
   * The decompressed bytes of {@code in}, which starts with this compression's magic. zstd needs
   * zstd-jni's native library, unpacked to java.io.tmpdir: where it cannot load (a platform it has
   * no build for, a noexec temporary directory) that is the machine's failure, and the log can
   * still be decompressed outside and piped in.
   */
  InputStream open(InputStream in, String name) throws IOException {
    try {
      return switch (this) {
        case GZIP -> new GzipCompressorInputStream(in, true);
        case BZIP2 -> new BZip2CompressorInputStream(in, true);
        case XZ -> new XZCompressorInputStream(in, true);
        case ZSTD -> new ZstdCompressorInputStream(in);
      };
    } catch (LinkageError e) {
      throw new RunFailure(
          name
              + ": zstd data, but zstd-jni's native library cannot be loaded here ("
              + LogReader.abbreviate(e.toString(), 120)
              + "); decompress it first, e.g. zstd -dc "
              + name
              + " | wg1bench replay -");
    }
  }
}
