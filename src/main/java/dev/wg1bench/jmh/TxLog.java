package dev.wg1bench.jmh;

import dev.wg1bench.plan.TxLogSpec;
import dev.wg1bench.workload.FailureKind;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One client's pgbench -l log, in pgbench 15's formats: a line per op ({@code client_id
 * transaction_no time script_no time_epoch time_us [schedule_lag] [retries]}, the time reading
 * {@code failed}, {@code serialization}, {@code deadlock} or {@code skipped} for such ops), or with
 * --aggregate-interval a line per interval of the 15 fields pgbench 15 writes. Only ops that count
 * in the measurement are logged, so the log and the result describe the same ops.
 *
 * <p>Each client has its own file and buffer, written by its own thread between ops: nothing is
 * shared on the measured path, and the buffer (64 KiB, a few thousand lines) reaches the disk
 * seldom.
 */
final class TxLog implements AutoCloseable {
  private final BufferedWriter out;
  private final int clientId;
  private final boolean paced;
  private final boolean limited;
  private final boolean retrying;
  private final boolean detailed;
  private final long aggregateMicros;
  private final double samplingRate;
  private final SplittableRandom sampling;

  /** Epoch microseconds at {@link #originNanos}: op times are taken with nanoTime. */
  private final long originEpochMicros;

  private final long originNanos;
  private long transactions;
  private boolean closed;

  /**
   * Logs still open when the fork's JVM exits: JMH runs no teardown after --exit-on-error or
   * --exit-on-abort ended the fork, and the clients' last buffered lines would be lost.
   */
  private static final Set<TxLog> OPEN = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (TxLog l : OPEN) {
                    l.close();
                  }
                },
                "wg1bench-txlog-flush"));
  }

  // the running interval of the aggregated format
  private long intervalStart = -1;
  private long count;
  private double sumLatency;
  private double sumLatency2;
  private double minLatency;
  private double maxLatency;
  private double sumLag;
  private double sumLag2;
  private double minLag;
  private double maxLag;
  private long skipped;
  private long retried;
  private long retries;
  private long serializationFailures;
  private long deadlockFailures;

  /** Client 0 writes the spec's base file, client N base.N, as pgbench's worker thread N. */
  static Path file(TxLogSpec spec, int clientId) {
    return Path.of(clientId == 0 ? spec.base() : spec.base() + "." + clientId);
  }

  TxLog(TxLogSpec spec, int clientId, boolean paced, boolean limited, int maxTries, long seed) {
    this.clientId = clientId;
    this.paced = paced;
    this.limited = limited;
    this.retrying = maxTries != 1;
    this.detailed = spec.failuresDetailed();
    this.aggregateMicros =
        spec.aggregateSeconds() == null ? 0 : spec.aggregateSeconds() * 1_000_000L;
    this.samplingRate = spec.samplingRate() == null ? 1.0 : spec.samplingRate();
    this.sampling = new SplittableRandom(seed);
    Instant now = Instant.now();
    originNanos = System.nanoTime();
    originEpochMicros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    try {
      out = Files.newBufferedWriter(file(spec, clientId), StandardCharsets.US_ASCII);
      OPEN.add(this);
    } catch (IOException e) {
      throw new UncheckedIOException("-l: cannot write " + file(spec, clientId), e);
    }
  }

  private long epochMicros(long nanos) {
    return originEpochMicros + (nanos - originNanos) / 1000;
  }

  /** The measurement window opened at {@code startNanos}: the first interval begins there. */
  void windowOpened(long startNanos) {
    if (aggregateMicros > 0 && intervalStart < 0) {
      intervalStart = epochMicros(startNanos);
    }
  }

  /**
   * A measured op that ran: {@code failure} is null when it succeeded; {@code lagMicros} is -1
   * without --rate.
   */
  void op(
      long doneNanos,
      long latencyMicros,
      int script,
      FailureKind failure,
      long lagMicros,
      long opRetries) {
    long at = epochMicros(doneNanos);
    transactions++;
    if (aggregateMicros > 0) {
      roll(at);
      if (opRetries > 0) {
        retried++;
        retries += opRetries;
      }
      if (failure != null) {
        // pgbench 15 counts a failed op only in the detailed failure columns
        if (detailed && failure == FailureKind.SERIALIZATION) {
          serializationFailures++;
        } else if (detailed && failure == FailureKind.DEADLOCK) {
          deadlockFailures++;
        }
        return;
      }
      count++;
      sumLatency += latencyMicros;
      sumLatency2 += (double) latencyMicros * latencyMicros;
      minLatency = count == 1 ? latencyMicros : Math.min(minLatency, latencyMicros);
      maxLatency = Math.max(maxLatency, latencyMicros);
      if (lagMicros >= 0) {
        sumLag += lagMicros;
        sumLag2 += (double) lagMicros * lagMicros;
        minLag = count == 1 ? lagMicros : Math.min(minLag, lagMicros);
        maxLag = Math.max(maxLag, lagMicros);
      }
      return;
    }
    if (samplingRate < 1.0 && sampling.nextDouble() >= samplingRate) {
      return;
    }
    String time =
        failure == null
            ? Long.toString(latencyMicros)
            : !detailed
                ? "failed"
                : failure == FailureKind.SERIALIZATION
                    ? "serialization"
                    : failure == FailureKind.DEADLOCK ? "deadlock" : "failed";
    line(transactions, time, script, at, lagMicros, opRetries);
  }

  /** An op skipped under --rate and --latency-limit because it could not start in time. */
  void skipped(long nowNanos, long lagMicros) {
    long at = epochMicros(nowNanos);
    if (aggregateMicros > 0) {
      roll(at);
      skipped++;
      return;
    }
    if (samplingRate < 1.0 && sampling.nextDouble() >= samplingRate) {
      return;
    }
    // pgbench writes the number the next transaction will have; no script was chosen yet
    line(transactions + 1, "skipped", 0, at, lagMicros, 0);
  }

  private void line(long no, String time, int script, long at, long lagMicros, long opRetries) {
    StringBuilder b = new StringBuilder(64);
    b.append(clientId)
        .append(' ')
        .append(no)
        .append(' ')
        .append(time)
        .append(' ')
        .append(script)
        .append(' ')
        .append(at / 1_000_000)
        .append(' ')
        .append(at % 1_000_000);
    if (paced) {
      b.append(' ').append(Math.max(0, lagMicros));
    }
    if (retrying) {
      b.append(' ').append(opRetries);
    }
    write(b.append('\n'));
  }

  /** Writes the intervals that ended before {@code at}, empty ones included, as pgbench does. */
  private void roll(long at) {
    if (intervalStart < 0) {
      intervalStart = at;
    }
    while (at >= intervalStart + aggregateMicros) {
      flushInterval();
      intervalStart += aggregateMicros;
    }
  }

  private void flushInterval() {
    StringBuilder b = new StringBuilder(128);
    b.append(intervalStart / 1_000_000).append(' ').append(count);
    for (double v :
        new double[] {
          sumLatency, sumLatency2, minLatency, maxLatency, sumLag, sumLag2, minLag, maxLag
        }) {
      b.append(' ').append(String.format(Locale.ROOT, "%.0f", v));
    }
    b.append(' ')
        .append(limited ? skipped : 0)
        .append(' ')
        .append(retried)
        .append(' ')
        .append(retries)
        .append(' ')
        .append(serializationFailures)
        .append(' ')
        .append(deadlockFailures)
        .append('\n');
    write(b);
    count = 0;
    sumLatency = 0;
    sumLatency2 = 0;
    minLatency = 0;
    maxLatency = 0;
    sumLag = 0;
    sumLag2 = 0;
    minLag = 0;
    maxLag = 0;
    skipped = 0;
    retried = 0;
    retries = 0;
    serializationFailures = 0;
    deadlockFailures = 0;
  }

  private void write(CharSequence s) {
    try {
      out.append(s);
    } catch (IOException e) {
      throw new UncheckedIOException("-l: cannot write the log", e);
    }
  }

  /** The last interval, if anything happened in it, then the file. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    OPEN.remove(this);
    if (aggregateMicros > 0
        && intervalStart >= 0
        && (count > 0 || skipped > 0 || serializationFailures > 0 || deadlockFailures > 0)) {
      flushInterval();
    }
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("-l: cannot write the log", e);
    }
  }
}
