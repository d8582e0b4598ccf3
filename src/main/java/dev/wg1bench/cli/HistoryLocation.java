package dev.wg1bench.cli;

import dev.wg1bench.history.store.HistoryStore;
import dev.wg1bench.history.store.HistoryStores;
import dev.wg1bench.plan.RunFailure;
import java.io.IOException;
import picocli.CommandLine.Option;

/**
 * {@code --history LOCATION} of the history subcommands, declared once: which history they read or
 * write, checked before anything is done, and one way of saying that it cannot be reached.
 */
final class HistoryLocation {
  @Option(
      names = "--history",
      paramLabel = "LOCATION",
      description =
          "The history: a jdbc:postgresql:// URL (default: the folder under $WG1BENCH_HOME,"
              + " default ~/.wg1bench).")
  String value = "";

  /** What to do with the open store. */
  interface Use<T> {
    T apply(HistoryStore store, String where) throws IOException;
  }

  /** A bad location is a usage error (exit 2) before anything is read. */
  void check() {
    HistoryStores.check(value);
  }

  /** Where the history is, for messages (never with a password). */
  String where() {
    return HistoryStores.describe(value, HistoryStores.home(System.getenv()));
  }

  /** Opens the history, uses it and closes it; one that cannot be reached is one line, exit 1. */
  <T> T use(Use<T> use) {
    check();
    try (HistoryStore store = HistoryStores.open(value)) {
      return use.apply(store, store.describe());
    } catch (IOException e) {
      throw new RunFailure("history " + where() + ": " + e.getMessage(), e);
    }
  }
}
