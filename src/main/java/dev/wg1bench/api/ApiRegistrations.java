package dev.wg1bench.api;

import dev.wg1bench.server.DataSources;
import dev.wg1bench.workload.JavaWorkloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The ids a description registered in this JVM (DataSources, workload suppliers), released by a
 * {@link Cleaner} when no description holds them any more (the action holds the lists, never the
 * holder), so that a description can be run any number of times; and where a run writes its result
 * when nobody asked to keep it.
 */
final class ApiRegistrations {
  private static final Cleaner CLEANER = Cleaner.create();
  final List<String> dataSources = new CopyOnWriteArrayList<>();
  final List<String> workloads = new CopyOnWriteArrayList<>();

  ApiRegistrations() {
    List<String> ds = dataSources;
    List<String> ws = workloads;
    CLEANER.register(
        this,
        () -> {
          ds.forEach(DataSources::unregister);
          ws.forEach(JavaWorkloads::unregister);
        });
  }

  /**
   * Runs {@code body} with {@code file}, or with a new temporary file for a result nobody asked to
   * keep, deleted afterwards: the result is held in memory ({@code json()} writes it anew), and a
   * user's test suite should not leave a file in the temporary directory per run.
   */
  static <T> T withOutput(Path file, String prefix, Function<Path, T> body) {
    if (file != null) {
      return body.apply(file);
    }
    Path temp;
    try {
      temp = Files.createTempFile(prefix, ".json");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return body.apply(temp);
    } finally {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // a file left in the temporary directory: nothing the run's result depends on
      }
    }
  }
}
