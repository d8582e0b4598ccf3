package dev.wg1bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one client's op in progress did, as it runs: its counts in the one value they travel in
 * ({@link #op}: statements sent, retries, its outcome by kind), which the op's path clears as the
 * op begins and adds once, as it ends, to the client's window, script and whole trial; and the
 * errors it saw, sampled by kind and SQLSTATE for the report. Mutated only by the client's own
 * thread; no allocation per op on the success path.
 */
public final class OpStats {
  /** The op in progress, counted as it runs (see the class comment). */
  public final OpCounts op = new OpCounts();

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
   * The think time the op in progress asked for: the client's next op starts no sooner than this
   * after the op ends. Zeroed as each op begins.
   */
  public long thinkNanos;

  /** The op sent {@code n} SQL statements (BEGIN and END included, as the server sees them). */
  public void sent(long n) {
    op.statements += n;
  }

  /** The op failed on a serialization failure or deadlock and will be executed again. */
  public void retried() {
    op.retries++;
  }

  /** The op succeeded after at least one retry. */
  public void succeededAfterRetries() {
    op.retriedOps++;
  }

  /** The op failed, after its tries, as {@code kind}. */
  public void failed(FailureKind kind) {
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

  /** A new iteration: no op in progress, no error sampled. */
  public void reset() {
    op.clear();
    samples.clear();
  }
}
