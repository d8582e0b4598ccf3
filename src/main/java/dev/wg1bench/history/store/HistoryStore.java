package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.Series;
import java.io.IOException;
import java.util.List;

/**
 * Where runs are kept: append-only, so a run once stored is never rewritten, and safe under
 * concurrent writers (several agents or CI jobs appending at once lose no run, and store one run
 * once: its id is made from it, see {@code RunIds}).
 */
public interface HistoryStore extends AutoCloseable {

  /**
   * What an append did.
   *
   * @param run the run as stored, with its id
   * @param alreadyStored whether the history had it already (then nothing was written)
   */
  record Appended(StoredRun run, boolean alreadyStored) {}

  /**
   * Appends a run unless the history has it (the same id: the same kind, start time to the
   * microsecond and figures), atomically: of writers appending one run at once, one stores it.
   *
   * @throws IOException when the history cannot be reached or written; nothing stored is changed
   */
  Appended append(StoredRun run) throws IOException;

  /** Every stored run, each once, oldest first (by time, then id). */
  List<StoredRun> runs() throws IOException;

  /**
   * The series whose name matches a glob ({@code *} and {@code ?}, matched against the whole name;
   * null for all), each oldest run first.
   */
  List<Series> series(String glob) throws IOException;

  /** Where this history is, for messages (never with a password). */
  String describe();

  @Override
  void close() throws IOException;
}
