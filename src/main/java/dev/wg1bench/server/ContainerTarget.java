package dev.wg1bench.server;

import dev.wg1bench.plan.Provision;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.Secret;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@code container:IMAGE} or {@code jdbc:tc:postgresql:TAG:///DB}: a PostgreSQL container started
 * through Testcontainers once for the whole run, empty, and removed at exit (Ctrl-C included). A
 * {@code jdbc:tc:} URL is read here rather than handed to pgjdbc's side: given to the driver as is,
 * every forked JVM and every pool would start a container of its own.
 *
 * <p>Stock settings: Testcontainers' own default command turns {@code fsync} off, which would
 * inflate every write figure, so the server is started with {@code --server-setting} values only
 * (and {@code max_connections} raised when the run needs more than the stock 100), all recorded.
 */
public final class ContainerTarget implements Target {
  public static final TargetSpec.Kind CONTAINER = new TargetSpec.Kind("CONTAINER");

  private static final Pattern CONTAINER_URL = Pattern.compile("container:(\\S+)");
  private static final Pattern TC_URL =
      Pattern.compile("jdbc:tc:postgresql(?::([^:/?]+))?://[^/?]*/([^?]*)(?:\\?(.*))?");
  private static final String ROLE = "wg1bench";
  private static final String DEFAULT_DB = "wg1bench";
  private static final int STOCK_MAX_CONNECTIONS = 100;

  static final TargetKind KIND =
      new TargetKind(
          CONTAINER,
          url -> url.startsWith("container:") || url.startsWith("jdbc:tc:"),
          (name, url, text, env, pwFile) -> parse(name, url, text),
          ContainerTarget::new,
          Set.of(TargetKind.Trait.TAKES_SERVER_SETTINGS));

  private final TargetSpec wanted;
  private PostgreSQLContainer container;
  private TargetSpec started;
  private Thread onExit;

  private ContainerTarget(TargetSpec wanted) {
    this.wanted = wanted;
  }

  static TargetSpec parse(String name, String url, String text) {
    String image;
    String db = DEFAULT_DB;
    Matcher c = CONTAINER_URL.matcher(url);
    Matcher tc = TC_URL.matcher(url);
    if (c.matches()) {
      image = c.group(1);
    } else if (tc.matches()) {
      if (tc.group(1) == null) {
        throw new UsageException(
            "--target '"
                + TargetSpec.redact(text)
                + "' names no PostgreSQL version; expected jdbc:tc:postgresql:TAG:///DB,"
                + " e.g. jdbc:tc:postgresql:17:///test");
      }
      if (tc.group(3) != null && !tc.group(3).isEmpty()) {
        throw new UsageException(
            "--target '"
                + TargetSpec.redact(text)
                + "': jdbc:tc: parameters are not used here; give server settings with"
                + " --server-setting NAME=VALUE");
      }
      image = "postgres:" + tc.group(1);
      if (!tc.group(2).isBlank()) {
        db = tc.group(2);
      }
    } else {
      throw new UsageException(
          "--target '"
              + TargetSpec.redact(text)
              + "' is not a container target; expected container:IMAGE (e.g. container:postgres:17)"
              + " or jdbc:tc:postgresql:TAG:///DB");
    }
    try {
      DockerImageName.parse(image).assertValid();
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--target '" + TargetSpec.redact(text) + "': '" + image + "' is not an image name");
    }
    // the database name rides in the URL until the container gives it a host and port
    return new TargetSpec(
        name == null ? image : name,
        CONTAINER,
        "jdbc:postgresql:///" + db,
        ROLE,
        null,
        null,
        Provision.image(image));
  }

  @Override
  public TargetSpec spec() {
    return started != null ? started : wanted;
  }

  @Override
  public boolean fresh() {
    return true;
  }

  @Override
  public void start(int connections, PrintStream out) {
    String image = wanted.provided().image();
    String db = wanted.jdbcUrl().substring(wanted.jdbcUrl().lastIndexOf('/') + 1);
    Containers.requireEngine("target " + wanted.name() + " (container:" + image + ")");
    Containers.requireImage(image, "target " + wanted.name(), out);
    Map<String, String> settings = new LinkedHashMap<>();
    if (connections + 10 > STOCK_MAX_CONNECTIONS) {
      settings.put("max_connections", Integer.toString(connections + 10));
    }
    settings.putAll(wanted.provided().serverSettings());
    List<String> command = new ArrayList<>(List.of("postgres"));
    settings.forEach((k, v) -> command.addAll(List.of("-c", k + "=" + v)));
    String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    long t0 = System.nanoTime();
    PostgreSQLContainer pg =
        new PostgreSQLContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("postgres"))
            .withDatabaseName(db)
            .withUsername(ROLE)
            .withPassword(password);
    // Docker's default 64 MB /dev/shm is smaller than a stock server may ask for (parallel query's
    // dynamic shared memory); the official image's documentation sizes it up the same way
    pg.withSharedMemorySize(512L * 1024 * 1024);
    pg.withCommand(command.toArray(String[]::new));
    pg.withStartupTimeout(Duration.ofSeconds(120));
    try {
      pg.start();
    } catch (RuntimeException e) {
      pg.stop();
      throw new RunFailure(
          "target "
              + wanted.name()
              + ": container "
              + image
              + " did not start: "
              + ConnectionFactory.oneLine(Containers.rootCause(e)),
          e);
    }
    container = pg;
    onExit = new Thread(pg::stop, "wg1bench-container-stop");
    Runtime.getRuntime().addShutdownHook(onExit);
    started =
        new TargetSpec(
            wanted.name(),
            CONTAINER,
            "jdbc:postgresql://" + pg.getHost() + ":" + pg.getMappedPort(5432) + "/" + db,
            ROLE,
            null,
            Secret.of(password),
            wanted.provided().withServerSettings(settings));
    out.printf(
        "target %s: started container %s (%s) in %.1f s at %s%s, removed at exit%n",
        wanted.name(),
        image,
        pg.getContainerId().substring(0, 12),
        (System.nanoTime() - t0) / 1e9,
        started.jdbcUrl(),
        settings.isEmpty() ? ", stock settings" : ", settings " + settings);
  }

  @Override
  public void close() {
    if (container != null) {
      container.stop();
      container = null;
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException alreadyExiting) {
        // the hook is running or about to: it stops the container, which is what close did
      }
    }
  }
}
