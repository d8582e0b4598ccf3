package dev.wg1bench.history.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Appends runs to a history, each at most once: adding or importing a file a second time would
 * store every run twice, and two copies of a run make a segment look twice as many runs strong and
 * its spread smaller than it is. A run is already stored when a stored run has its id, or its time
 * and kind and either the same attributes or the same figures (the attributes a CI job adds, such
 * as its build, differ when the same result file is added from two jobs). Checked against the
 * history as it was read once, plus what this appender stored: writers appending the same run at
 * the same moment may both store it.
 */
public final class AppendOnce {
  private final HistoryStore store;
  private final List<StoredRun> known;

  /** What happened to one run. */
  public record Outcome(StoredRun run, boolean alreadyStored) {}

  /** Reads the history's runs once, for the appends that follow. */
  public AppendOnce(HistoryStore store) throws IOException {
    this.store = store;
    this.known = new ArrayList<>(store.runs());
  }

  /** Appends a run unless it is already stored; then returns the stored one. */
  public Outcome append(StoredRun run) throws IOException {
    for (StoredRun k : known) {
      if (same(k, run)) {
        return new Outcome(k, true);
      }
    }
    StoredRun stored = store.append(run);
    known.add(stored);
    return new Outcome(stored, false);
  }

  /** Whether two runs are one. */
  static boolean same(StoredRun stored, StoredRun run) {
    if (run.id() != null && run.id().equals(stored.id())) {
      return true;
    }
    if (!stored.time().equals(run.time()) || !stored.kind().equals(run.kind())) {
      return false;
    }
    return stored.attributes().equals(run.attributes())
        || new HashSet<>(stored.metrics()).equals(new HashSet<>(run.metrics()));
  }
}
