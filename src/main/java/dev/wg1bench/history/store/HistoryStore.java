package dev.wg1bench.history.store;

import dev.wg1bench.history.analysis.Series;
import java.io.IOException;
import java.util.List;

/**
 * Where runs are kept: append-only, so a run once stored is never rewritten, and safe under
 * concurrent writers (several agents or CI jobs appending at once lose no run).
 */
public interface HistoryStore extends AutoCloseable {

  /**
   * Appends a run and returns it as stored, with its id.
   *
   * @throws IOException when the history cannot be reached or written; nothing stored is changed
   */
  StoredRun append(StoredRun run) throws IOException;

  /** Every stored run, oldest first (by time, then id). */
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
