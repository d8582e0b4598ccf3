package dev.wg1bench.server.window;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The wait sampler's loop, run by the server in one statement: every interval, pg_stat_activity
 * read afresh for the clients' pids and each row's state counted, until the window's connection
 * lets go of an advisory lock; the counts so far are sent as a notice about once a second, and once
 * more at the end.
 *
 * <p>Why on the server: sampled from the client, each of 100 samples a second was a query through
 * pgjdbc on the measured JVM: a thread woken on the clients' cores, its round trip, and driver code
 * the JIT compiled and recompiled while the clients were measured. On the server the sampling costs
 * what it did (its backend reads pg_stat_activity as before) and the client one statement a window.
 *
 * <p>Why a lock, not a cancel: the loop ends when the lock is free, and it is freed when the
 * window's connection unlocks it or its session ends for any reason (the fork killed, the network
 * gone), so no loop outlives the window on any major. A loop sends nothing but a notice a second,
 * and a server notices a lost client only when it writes to it.
 */
final class SamplingLoop {
  /** The notices' tag: the counts follow it as a JSON object. */
  static final String TAG = "wg1bench-waits ";

  private SamplingLoop() {}

  /**
   * The DO block for {@code pids}, sampled every {@code intervalNanos} until advisory lock {@code
   * key} can be taken (it is then released at once).
   */
  static String sql(int[] pids, long intervalNanos, long key) {
    String every = String.format(Locale.ROOT, "%.6f", intervalNanos / 1e9);
    String array =
        Arrays.stream(pids).mapToObj(Integer::toString).collect(Collectors.joining(",", "{", "}"));
    String counts = "jsonb_build_object('samples', samples, 'found', found, 'counts', counts)";
    return ServerWindow.MARKER
        + " DO $wg1bench$\n"
        + "DECLARE\n"
        + "  every CONSTANT interval := make_interval(secs => "
        + every
        + ");\n"
        + "  due timestamptz := clock_timestamp();\n"
        + "  reported timestamptz := clock_timestamp();\n"
        + "  samples bigint := 0;\n"
        + "  found bigint := 0;\n"
        + "  counts jsonb := '{}';\n"
        + "  k text;\n"
        + "  r record;\n"
        + "BEGIN\n"
        + "  LOOP\n"
        // the next sample is due an interval after the last was due: a late one delays the next
        // but never shifts the grid
        + "    due := due + every;\n"
        + "    IF due > clock_timestamp() THEN\n"
        + "      PERFORM pg_sleep(extract(epoch FROM due - clock_timestamp())::float8);\n"
        + "    END IF;\n"
        + "    EXIT WHEN pg_try_advisory_lock("
        + key
        + ");\n"
        + "    PERFORM pg_stat_clear_snapshot();\n"
        + "    samples := samples + 1;\n"
        + "    FOR r IN SELECT state, wait_event_type, wait_event FROM pg_stat_activity"
        + " WHERE pid = ANY ('"
        + array
        + "'::int[]) LOOP\n"
        + "      found := found + 1;\n"
        + "      k := jsonb_build_array(r.state, r.wait_event_type, r.wait_event)::text;\n"
        + "      counts := jsonb_set(counts, ARRAY[k],"
        + " to_jsonb(coalesce((counts ->> k)::bigint, 0) + 1));\n"
        + "    END LOOP;\n"
        + "    IF clock_timestamp() >= reported + interval '1 second' THEN\n"
        + "      reported := clock_timestamp();\n"
        + "      RAISE NOTICE '"
        + TAG
        + "%', "
        + counts
        + ";\n"
        + "    END IF;\n"
        + "  END LOOP;\n"
        + "  PERFORM pg_advisory_unlock("
        + key
        + ");\n"
        + "  RAISE NOTICE '"
        + TAG
        + "%', "
        + counts
        + ";\n"
        + "END\n"
        + "$wg1bench$";
  }
}
