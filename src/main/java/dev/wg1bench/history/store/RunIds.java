package dev.wg1bench.history.store;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * A stored run's id: the UTC time it was appended, to the microsecond, then 8 random hex digits,
 * e.g. {@code 20261127T113412.123456Z-3fa91c07}. Ids sort by the time they were appended, and two
 * writers appending in the same microsecond still differ (1 chance in 4 billion to collide, and a
 * collision is retried with a new id, never written over).
 */
final class RunIds {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  private RunIds() {}

  static String next() {
    byte[] b = new byte[4];
    RANDOM.nextBytes(b);
    return STAMP.format(Instant.now()) + "-" + HexFormat.of().formatHex(b);
  }

  /** Whether a text can be an id this class made: it names a file, so nothing else is accepted. */
  static boolean valid(String id) {
    return id != null && id.matches("\\d{8}T\\d{6}\\.\\d{6}Z-[0-9a-f]{8}");
  }
}
