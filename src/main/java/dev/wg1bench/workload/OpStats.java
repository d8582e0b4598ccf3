package dev.wg1bench.workload;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client's running counts. Mutated only by its own thread; read by the measurement layer at
 * iteration boundaries. Plain fields, no allocation per op on the success path.
 */
public final class OpStats {
  /** SQL statements sent (BEGIN and END included, as the server sees them). */
  public long statements;

  /** Re-executions of ops after a serialization failure or deadlock. */
  public long retries;

  /** Ops that succeeded only after at least one retry. */
  public long retriedOps;

  private final EnumMap<FailureKind, Long> failures = new EnumMap<>(FailureKind.class);

  /** First message and time of each distinct error (by kind and SQLSTATE). */
  private final Map<String, ErrorSample> samples = new LinkedHashMap<>();

  /** A distinct error, counted, with its first occurrence. */
  public static final class ErrorSample {
    public final String kind;
    public final String sqlState;
    public final String firstMessage;
    public final long firstAtEpochMs;

    /** When it was last seen: with the first time, the window an outage's errors fall in. */
    public long lastAtEpochMs;

    public long count;

    /** Errors that were retried away count here too, but not as failed ops. */
    public long retried;

    ErrorSample(String kind, String sqlState, String firstMessage, long at) {
      this.kind = kind;
      this.sqlState = sqlState;
      this.firstMessage = firstMessage;
      this.firstAtEpochMs = at;
      this.lastAtEpochMs = at;
    }
  }

  /** Kind of the last op that failed (after its tries), null before any; never reset. */
  public FailureKind lastFailed;

  /** SQLSTATE ("-" for a script error) and message of the last error seen; never reset. */
  public String lastSqlState;

  public String lastMessage;

  public void failed(FailureKind kind) {
    failures.merge(kind, 1L, Long::sum);
    lastFailed = kind;
  }

  /** Records an error seen by an op, whether or not a retry later cured it. */
  public void error(FailureKind kind, String sqlState, String message, boolean willRetry) {
    lastSqlState = sqlState;
    lastMessage = message;
    String key = kind.label() + "/" + sqlState;
    long now = System.currentTimeMillis();
    ErrorSample s = samples.get(key);
    if (s == null) {
      s = new ErrorSample(kind.label(), sqlState, message, now);
      samples.put(key, s);
    }
    s.lastAtEpochMs = now;
    s.count++;
    if (willRetry) {
      s.retried++;
    }
  }

  public long failures(FailureKind kind) {
    return failures.getOrDefault(kind, 0L);
  }

  public long failedOps() {
    long n = 0;
    for (long v : failures.values()) {
      n += v;
    }
    return n;
  }

  public Map<String, ErrorSample> samples() {
    return samples;
  }

  public void reset() {
    statements = 0;
    retries = 0;
    retriedOps = 0;
    failures.clear();
    samples.clear();
  }
}
