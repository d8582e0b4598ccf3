package dev.wg1bench.load.ssb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Helpers shared by the SSB tests. */
final class SsbTestSupport {
  private SsbTestSupport() {}

  static byte[] table(SsbGenerator g, SsbTable t) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      g.writeAll(t, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] chunk(SsbGenerator g, Chunk c) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      g.write(c, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static long lines(byte[] data) {
    long n = 0;
    for (byte b : data) {
      if (b == '\n') {
        n++;
      }
    }
    return n;
  }

  static String[] lineArray(byte[] data) {
    return new String(data, StandardCharsets.US_ASCII).split("\n", -1);
  }
}
