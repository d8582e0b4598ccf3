package dev.wg1bench.server.window;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Windows that followed one another on one server (a trial's forks) as one: counts and times
 * summed, means and shares taken again from the sums. A figure one window could not read is unknown
 * for all of them (a sum missing a part is not the sum), and every window's reason is kept. Not for
 * windows that overlapped on one server (agents measuring at once): each of those already holds
 * every session's statements and the database's counters, so one of them is the figure, not their
 * sum.
 */
public final class ServerSides {
  private ServerSides() {}

  public static ServerSide sequential(List<ServerSide> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    double seconds = parts.stream().mapToDouble(ServerSide::seconds).sum();
    return new ServerSide(
        seconds,
        all(parts, ServerSide::statements) ? statements(parts) : null,
        why(parts, ServerSide::statementsWhy),
        all(parts, ServerSide::waits) ? shares(parts, ServerSide::waits) : null,
        why(parts, ServerSide::waitsWhy),
        parts.get(0).sampleIntervalMs(),
        parts.stream().mapToLong(ServerSide::samples).sum(),
        all(parts, ServerSide::waitSampling) ? shares(parts, ServerSide::waitSampling) : null,
        why(parts, ServerSide::waitSamplingWhy),
        all(parts, ServerSide::database) ? database(parts, seconds) : null,
        why(parts, ServerSide::databaseWhy));
  }

  private static boolean all(List<ServerSide> parts, Function<ServerSide, ?> figure) {
    return parts.stream().map(figure).allMatch(Objects::nonNull);
  }

  /** Each distinct reason of the parts, in order, one line. */
  private static String why(List<ServerSide> parts, Function<ServerSide, String> why) {
    LinkedHashSet<String> s = new LinkedHashSet<>();
    parts.stream().map(why).filter(Objects::nonNull).forEach(s::add);
    return s.isEmpty() ? null : String.join("; ", s);
  }

  private static List<ServerSide.StatementFigures> statements(List<ServerSide> parts) {
    Map<String, ServerSide.StatementFigures> m = new LinkedHashMap<>();
    for (ServerSide p : parts) {
      for (ServerSide.StatementFigures f : p.statements()) {
        m.merge(f.query(), f, ServerSides::add);
      }
    }
    List<ServerSide.StatementFigures> out = new ArrayList<>(m.values());
    out.sort(Comparator.comparingDouble(ServerSide.StatementFigures::totalExecMs).reversed());
    return out;
  }

  private static ServerSide.StatementFigures add(
      ServerSide.StatementFigures a, ServerSide.StatementFigures b) {
    long calls = a.calls() + b.calls();
    double exec = a.totalExecMs() + b.totalExecMs();
    Double plan =
        a.totalPlanMs() == null || b.totalPlanMs() == null
            ? null
            : a.totalPlanMs() + b.totalPlanMs();
    return new ServerSide.StatementFigures(
        a.query(),
        calls,
        exec,
        exec / calls,
        plan,
        plan == null ? null : plan / calls,
        a.rows() + b.rows(),
        a.sharedBlksHit() + b.sharedBlksHit(),
        a.sharedBlksRead() + b.sharedBlksRead(),
        a.sharedBlksDirtied() + b.sharedBlksDirtied(),
        a.sharedBlksWritten() + b.sharedBlksWritten(),
        a.tempBlksRead() + b.tempBlksRead(),
        a.tempBlksWritten() + b.tempBlksWritten(),
        a.walBytes() == null || b.walBytes() == null ? null : a.walBytes() + b.walBytes());
  }

  private static List<ServerSide.WaitShare> shares(
      List<ServerSide> parts, Function<ServerSide, List<ServerSide.WaitShare>> of) {
    Map<String, long[]> counts = new LinkedHashMap<>();
    long total = 0;
    for (ServerSide p : parts) {
      for (ServerSide.WaitShare w : of.apply(p)) {
        counts.computeIfAbsent(w.name(), k -> new long[1])[0] += w.samples();
        total += w.samples();
      }
    }
    return WaitSampler.shares(counts, total);
  }

  private static ServerSide.DatabaseFigures database(List<ServerSide> parts, double seconds) {
    List<ServerSide.DatabaseFigures> d = parts.stream().map(ServerSide::database).toList();
    long commit = sum(d, ServerSide.DatabaseFigures::xactCommit);
    long rollback = sum(d, ServerSide.DatabaseFigures::xactRollback);
    boolean wal = d.stream().allMatch(x -> x.walRecords() != null);
    boolean io = d.stream().allMatch(x -> x.io() != null);
    return new ServerSide.DatabaseFigures(
        commit,
        rollback,
        seconds > 0 ? (Double) ((commit + rollback) / (seconds / 60)) : null,
        sum(d, ServerSide.DatabaseFigures::blksRead),
        sum(d, ServerSide.DatabaseFigures::blksHit),
        sum(d, ServerSide.DatabaseFigures::tupReturned),
        sum(d, ServerSide.DatabaseFigures::tupFetched),
        sum(d, ServerSide.DatabaseFigures::tupInserted),
        sum(d, ServerSide.DatabaseFigures::tupUpdated),
        sum(d, ServerSide.DatabaseFigures::tupDeleted),
        sum(d, ServerSide.DatabaseFigures::tempFiles),
        sum(d, ServerSide.DatabaseFigures::tempBytes),
        sum(d, ServerSide.DatabaseFigures::deadlocks),
        sum(d, ServerSide.DatabaseFigures::conflicts),
        wal ? sum(d, ServerSide.DatabaseFigures::walRecords) : null,
        wal ? sum(d, ServerSide.DatabaseFigures::walFpi) : null,
        wal ? sum(d, ServerSide.DatabaseFigures::walBytes) : null,
        wal ? sum(d, ServerSide.DatabaseFigures::walBuffersFull) : null,
        d.get(0).walWhy(),
        io ? io(d) : null,
        d.get(0).ioWhy());
  }

  private static long sum(
      List<ServerSide.DatabaseFigures> d, Function<ServerSide.DatabaseFigures, Long> f) {
    return d.stream().map(f).mapToLong(Long::longValue).sum();
  }

  private static List<ServerSide.IoFigures> io(List<ServerSide.DatabaseFigures> d) {
    Map<String, ServerSide.IoFigures> m = new LinkedHashMap<>();
    for (ServerSide.DatabaseFigures x : d) {
      for (ServerSide.IoFigures f : x.io()) {
        m.merge(
            f.backendType() + "\t" + f.object() + "\t" + f.context(),
            f,
            (a, b) ->
                new ServerSide.IoFigures(
                    a.backendType(),
                    a.object(),
                    a.context(),
                    a.reads() + b.reads(),
                    a.writes() + b.writes(),
                    a.extended() + b.extended(),
                    a.hits() + b.hits(),
                    a.evictions() + b.evictions(),
                    a.fsyncs() + b.fsyncs()));
      }
    }
    return new ArrayList<>(m.values());
  }
}
