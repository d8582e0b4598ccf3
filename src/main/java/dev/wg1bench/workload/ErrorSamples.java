package dev.wg1bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The errors one client's ops saw, sampled, not counted: the first message and time of each kind
 * and SQLSTATE for the report, and the last failure and error, which decide what the client does
 * next (an outage, a stop). An op's counts, its failures by kind among them, are its {@link
 * OpCounts} value alone; this keeps only what a count cannot say. Mutated only by the client's own
 * thread; nothing is touched on a successful op's path.
 */
public final class ErrorSamples {
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

  /**
   * The op failed, after its tries, as {@code kind}: counted once, in its value {@code op}, and
   * noted as the last failure.
   */
  public void failed(OpCounts op, FailureKind kind) {
    op.failed(kind.label());
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

  public Map<String, ErrorSample> samples() {
    return samples;
  }

  /** A new iteration: no error sampled (the last failure and error are kept). */
  public void reset() {
    samples.clear();
  }
}
