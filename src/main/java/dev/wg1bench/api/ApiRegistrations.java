package dev.wg1bench.api;

import dev.wg1bench.api.internal.JavaWorkloads;
import dev.wg1bench.server.DataSources;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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

  /** {@code file}, or a new temporary file for a result nobody asked to keep. */
  static java.nio.file.Path tempOr(java.nio.file.Path file, String prefix) {
    try {
      return file != null ? file : java.nio.file.Files.createTempFile(prefix, ".json");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
