package dev.wg1bench.history.store;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Appends runs to a history, each at most once: adding or importing a file a second time would
 * store every run twice, and two copies of a run make a segment look twice as many runs strong and
 * its spread smaller than it is. A run is already stored when a stored run has its id, or its time
 * and kind and either the same attributes or the same figures (the attributes a CI job adds, such
 * as its build, differ when the same result file is added from two jobs), times compared at the
 * microsecond PostgreSQL keeps. Checked against the history as it was read once, plus what this
 * appender stored; writers appending the same run at the same moment are settled by the store
 * itself, which stores a run's id once ({@link HistoryStore#append}).
 */
public final class AppendOnce {
  private final HistoryStore store;
  private final List<StoredRun> known;

  /** Reads the history's runs once, for the appends that follow. */
  public AppendOnce(HistoryStore store) throws IOException {
    this.store = store;
    this.known = new ArrayList<>(store.runs());
  }

  /** Appends a run unless it is already stored; then returns the stored one. */
  public HistoryStore.Appended append(StoredRun run) throws IOException {
    for (StoredRun k : known) {
      if (same(k, run)) {
        return new HistoryStore.Appended(k, true);
      }
    }
    HistoryStore.Appended a = store.append(run);
    known.add(a.run());
    return a;
  }

  /** Whether two runs are one. */
  static boolean same(StoredRun stored, StoredRun run) {
    if (run.id() != null && run.id().equals(stored.id())) {
      return true;
    }
    if (!micros(stored).equals(micros(run)) || !stored.kind().equals(run.kind())) {
      return false;
    }
    return stored.attributes().equals(run.attributes())
        || new HashSet<>(stored.metrics()).equals(new HashSet<>(run.metrics()));
  }

  private static Instant micros(StoredRun r) {
    return r.time().truncatedTo(ChronoUnit.MICROS);
  }
}
