package dev.wg1bench.cli;

import dev.wg1bench.server.EmbeddedServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An embedded server with PostgreSQL's own defaults that logs what a replay reads: every statement
 * with its duration, connections and disconnections, in csvlog to {@code log/capture.csv} under its
 * data directory.
 */
final class CapturingServer {
  private CapturingServer() {}

  /** Starts one in {@code data} (emptied first), with {@code more} settings over the capture's. */
  static EmbeddedPostgres start(Path data, Map<String, String> more) throws IOException {
    Map<String, String> settings = new LinkedHashMap<>(EmbeddedServer.STOCK_SETTINGS);
    settings.putAll(
        Map.of(
            "logging_collector", "on",
            "log_destination", "csvlog",
            "log_directory", "log",
            "log_filename", "capture.log",
            "log_statement", "all",
            "log_min_duration_statement", "0",
            "log_connections", "on",
            "log_disconnections", "on"));
    settings.putAll(more);
    EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
    settings.forEach(b::setServerConfig);
    b.setDataDirectory(data).setCleanDataDirectory(true);
    b.setPGStartupWait(Duration.ofSeconds(60));
    return b.start();
  }

  /** The csvlog file such a server writes. */
  static Path log(Path data) {
    return data.resolve("log").resolve("capture.csv");
  }
}
