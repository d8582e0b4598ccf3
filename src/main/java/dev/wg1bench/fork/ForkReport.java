package dev.wg1bench.fork;

import dev.wg1bench.server.window.ServerSide;
import dev.wg1bench.workload.OpCounts;
import dev.wg1bench.workload.ScriptOutline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fork's wire format: what one JMH fork saw beyond JMH's own numbers: the latency histogram of
 * its measurement iterations, failures by kind, first samples of each distinct error, and totals
 * over the whole trial (warmup included) that data checks need. Written as JSON into the trial
 * directory.
 */
public final class ForkReport {
  /** Connection-pool wait of measured ops (pooled runs), microseconds, HdrHistogram encoded. */
  public String poolWaitHistogram;

  /** Schedule lag of measured ops (--rate runs), microseconds, HdrHistogram encoded. */
  public String lagHistogram;

  /**
   * What completed inside the measurement windows, with the latency histogram of its successful ops
   * (µs) and its parts (see {@link #scripts}).
   */
  public OpCounts measured = new OpCounts();

  public long measuredNanos;

  /** CPU time of this fork's JVM (all threads) over the measurement windows. */
  public long measuredCpuNanos;

  /** Processors this fork's JVM could use, for the client's share of the machine. */
  public int cores;

  /**
   * What the clients ran on, seen from each client's own set-up: platform, virtual, or mixed (some
   * of each: JMH's executor of this JVM was not the one asked for).
   */
  public String threads;

  /** Virtual threads: JFR jdk.VirtualThreadPinned events inside the measurement windows. */
  public Long pinned;

  /** Virtual threads: time the measured pins held their carrier, nanoseconds. */
  public Long pinnedNanos;

  /** Virtual threads: pins over the whole trial, set-up and warmup included. */
  public Long pinnedAll;

  /** Virtual threads: carrier threads alive at most (sampled about once a second). */
  public Integer carriersPeak;

  /** Virtual threads: the scheduler's parallelism (carriers it keeps busy when none is pinned). */
  public Integer carrierParallelism;

  /** Virtual threads: the busiest pin sites over the trial (see PinWatch#site) and their counts. */
  public Map<String, Long> pinSites;

  /** The measurement windows, one per measurement iteration, in order. */
  public List<Window> windows = new ArrayList<>();

  /**
   * All iterations, warmup included, what the database saw: successful and failed ops, and as parts
   * a workload class's steps.
   */
  public OpCounts whole = new OpCounts();

  public List<ErrorEntry> errors = new ArrayList<>();

  /** Periods when clients had lost their connection, in order (warmup included). */
  public List<Outage> outages = new ArrayList<>();

  /** pg_stat_ssl of a client connection, and the effective value of each --set. */
  public String clientSsl;

  /**
   * Why {@link #clientSsl} is null: the server refused the session opened to read it (a role at its
   * connection limit once the pool holds its share), as "SQLSTATE: message"; null when it was read.
   */
  public String clientSslRefused;

  public Map<String, String> clientSettings = new LinkedHashMap<>();
  public String stoppedBy;

  /**
   * One measurement iteration's window: the ops that completed inside it, its length, and what the
   * server's commit counter and this JVM's CPU time did over it.
   *
   * @see MeasurementWindow
   */
  public static final class Window {
    /** When the window opened, microseconds since the epoch (the commit records' precision). */
    public long startEpochMicros;

    public long nanos;

    /** What completed inside it: each client's window counts, added. */
    public OpCounts counts = new OpCounts();

    /** Successful ops completed in each second of the window, the last second possibly partial. */
    public long[] okPerSecond;

    /** pg_stat_database.xact_commit delta over the window; null when it could not be read. */
    public Long serverCommits;

    /** Time between the two reads of the server's counter (midpoints of their round trips). */
    public long serverNanos;

    /**
     * WAL insert positions read with the counter: the commit records between them (pg_walinspect)
     * count the window's writing transactions exactly, with none of the counter's delay.
     */
    public String walStart;

    public String walEnd;

    public long cpuNanos;

    /** What the server did over the window (server.window); null where none was started. */
    public ServerSide serverSide;
  }

  /**
   * The scripts whose names key the counts' parts (see workload.ScriptOutline#keys), in order, with
   * their weights and, under --report-per-command, their commands (whose indices key their parts);
   * null for a workload of one script without it, or not made of scripts.
   */
  public List<Script> scripts;

  /** Whether the one script's parts are a workload class's steps ({@code op.step}). */
  public boolean steps;

  /**
   * A script as the per-script and per-command figures name it.
   *
   * @param name its file as given
   * @param weight its weight in the mix
   * @param commands under --report-per-command its commands in order, else null
   */
  public record Script(String name, int weight, List<ScriptOutline.Command> commands) {}

  /** Time the clients took to open their connections at the start (pgbench's), and how many. */
  public long connectNanos;

  public int connects;

  /** Clients stopped by an error that won't heal, and the first one's reason. */
  public int clientsStopped;

  public String clientsStoppedBy;

  /**
   * Clients that started (connected and set up), and the line saying how the fork did not run as
   * asked (clients that could not start, a pool that could not fill), null when it did.
   */
  public int clientsRan;

  public String notAsAsked;

  /** One distinct error (kind and SQLSTATE), counted over the whole trial. */
  public static final class ErrorEntry {
    public String kind;
    public String sqlState;
    public String firstMessage;
    public long firstAtEpochMs;
    public long lastAtEpochMs;
    public long count;
    public long retried;
    public String phase;
  }

  /**
   * From the first client losing its connection to the last one getting it back: a server restart
   * or a refused reconnect shows up as one outage, however many clients it hit.
   *
   * @see dev.wg1bench.jmh.WorkloadBenchmark
   */
  public static final class Outage {
    public long lostAtEpochMs;

    /** 0 when some client was still without a connection when the run ended. */
    public long backAtEpochMs;

    public int clientsLost;
    public int clientsReconnected;

    /** Ops that failed on a lost connection (or a failed reconnect) during the outage. */
    public long failedOps;
  }
}
