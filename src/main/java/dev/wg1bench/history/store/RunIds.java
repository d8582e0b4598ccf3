package dev.wg1bench.history.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stored run's id, made from the run itself: the UTC time it started, to the microsecond (what
 * PostgreSQL's timestamptz keeps), then 8 hex digits of a SHA-256 of its kind, that time and every
 * figure, e.g. {@code 20261127T113412.123456Z-3fa91c07}. The same run gets the same id whoever
 * appends it and however often, so the stores make "stored once" a property of the id: a name the
 * folder refuses to link twice, a primary key PostgreSQL refuses to insert twice. The attributes
 * are not part of it: the same result added from two CI jobs (another build) is one run.
 */
final class RunIds {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private RunIds() {}

  /** The id of a run: its start time and a digest of its kind, time and figures. */
  static String of(StoredRun run) {
    StringBuilder b = new StringBuilder();
    b.append(run.kind()).append('\n').append(run.time().truncatedTo(ChronoUnit.MICROS));
    List<StoredMetric> ms = new ArrayList<>(run.metrics());
    ms.sort(Comparator.comparing(StoredMetric::config).thenComparing(StoredMetric::metric));
    for (StoredMetric m : ms) {
      b.append('\n')
          .append(m.config())
          .append('\t')
          .append(m.metric())
          .append('\t')
          .append(m.higherIsBetter())
          .append('\t')
          .append(m.value())
          .append('\t')
          .append(m.low())
          .append('\t')
          .append(m.high());
    }
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(b.toString().getBytes(StandardCharsets.UTF_8));
      return STAMP.format(run.time()) + "-" + HexFormat.of().formatHex(d, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  /**
   * The runs each once: a history written by a wg1bench that stored a run twice (before ids were
   * made from the run) keeps its copies, and they are read as one, the first by id.
   */
  static List<StoredRun> once(List<StoredRun> runs) {
    Map<String, StoredRun> first = new LinkedHashMap<>();
    for (StoredRun r : runs) {
      first.merge(of(r), r, (a, b) -> a.id().compareTo(b.id()) <= 0 ? a : b);
    }
    return new ArrayList<>(first.values());
  }

  /** Whether a text can be an id this class made: it names a file, so nothing else is accepted. */
  static boolean valid(String id) {
    return id != null && id.matches("\\d{8}T\\d{6}\\.\\d{6}Z-[0-9a-f]{8}");
  }
}
