package dev.wg1bench.server;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * initdb once, copied for every embedded server after it. initdb cost about 2 s of CPU on a 2-core
 * machine, and every comparison, every test JVM and every {@code java -jar} without a target starts
 * a server: a copy of a stopped, freshly initialised data directory is the same cluster for a
 * fraction of that. The template is kept per binaries version and per what initdb reads from the
 * environment (the locale and time zone variables, {@code /etc/localtime}), in a directory of this
 * user's own under {@code java.io.tmpdir}, as zonky keeps the binaries it extracts. Where no
 * template can be made or used, the server's directory is left empty and zonky runs initdb as
 * before.
 */
final class EmbeddedTemplate {
  /** Written last into a finished template: a directory without it is never copied. */
  static final String MARKER = "wg1bench-template";

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  private final Path dir;
  private final Supplier<EmbeddedPostgres.Builder> builder;

  /**
   * @param binaries the binaries' version (zonky's artifact version)
   * @param builder a builder set up as the servers' are: binaries, working directory, start wait
   */
  EmbeddedTemplate(Path root, String binaries, Supplier<EmbeddedPostgres.Builder> builder) {
    this.dir = root.resolve(key(binaries));
    this.builder = builder;
  }

  /** A new server's data directory, with whether it already holds an initialised cluster. */
  record DataDirectory(Path path, boolean initialised) {}

  /**
   * A new directory holding a copy of the template (made first when there is none yet), or an empty
   * one when the template cannot be made or read here.
   */
  DataDirectory newDataDirectory() throws IOException {
    Path data = Files.createTempDirectory("wg1bench-pg-");
    try {
      if (!ownRoot(dir.getParent())) {
        return new DataDirectory(data, false);
      }
      if (!ready()) {
        // a template only ever appears whole (see build), so one without its files was damaged
        // since (a temporary-file cleaner, say): made anew
        discard();
      }
      if (ready() || build()) {
        copy(dir, data);
        return new DataDirectory(data, true);
      }
    } catch (IOException | RuntimeException e) {
      // the cluster is made the old way; a template that could not be copied is made anew
      discard();
      EmbeddedServer.deleteTree(data);
      data = Files.createTempDirectory("wg1bench-pg-");
    }
    return new DataDirectory(data, false);
  }

  /** Removes the template: a server started from a copy of it failed, the next start remakes it. */
  void discard() {
    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        // renamed first so that no other process copies a template half removed
        Path gone = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".gone-");
        Files.move(dir, gone.resolve("t"), StandardCopyOption.ATOMIC_MOVE);
        EmbeddedServer.deleteTree(gone);
      } catch (IOException e) {
        // another process discarded or remade it meanwhile
      }
    }
  }

  /** Whether the template is whole: its marker, and the files without which no server starts. */
  boolean ready() {
    for (String f : List.of(MARKER, "PG_VERSION", "global/pg_control")) {
      if (!Files.isRegularFile(dir.resolve(f), LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
    }
    return true;
  }

  /** Where the template is (or will be). */
  Path dir() {
    return dir;
  }

  /**
   * initdb through zonky into a directory of its own, which zonky then starts: stopped cleanly,
   * cleared of what that start left (its lock and options files, its statistics) and renamed into
   * place in one step, so a concurrent process sees the whole template or none. Two processes that
   * both find none each make one, and the second's rename loses.
   */
  private boolean build() throws IOException {
    Path root = dir.getParent();
    Path fresh = Files.createTempDirectory(root, dir.getFileName() + ".new-");
    try {
      EmbeddedPostgres pg =
          builder.get().setDataDirectory(fresh).setCleanDataDirectory(false).start();
      if (!EmbeddedServer.stop(pg, fresh)) {
        return false;
      }
      Files.deleteIfExists(fresh.resolve("epg-lock"));
      Files.deleteIfExists(fresh.resolve("postmaster.opts"));
      try (Stream<Path> stats = Files.list(fresh.resolve("pg_stat"))) {
        for (Path f : stats.toList()) {
          Files.deleteIfExists(f);
        }
      }
      Files.writeString(fresh.resolve(MARKER), dir.getFileName() + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(fresh, dir, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        // made by another process meanwhile: theirs is used
      } catch (IOException e) {
        if (!ready()) {
          throw e;
        }
      }
      return ready();
    } finally {
      if (Files.exists(fresh)) {
        EmbeddedServer.deleteTree(fresh);
      }
    }
  }

  /**
   * The templates' directory, made owner-only if missing; false when it is not this user's own and
   * owner-only (in a shared temporary directory, a template planted by someone else is not used).
   */
  private static boolean ownRoot(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(root, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (FileAlreadyExistsException e) {
        // made by a concurrent process: checked below like any other
      }
    }
    return Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)
        && Files.getOwner(root, LinkOption.NOFOLLOW_LINKS)
            .getName()
            .equals(System.getProperty("user.name"))
        && Files.getPosixFilePermissions(root, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY);
  }

  /** The templates' directory: this user's own, under java.io.tmpdir. */
  static Path root() {
    return Path.of(
        System.getProperty("java.io.tmpdir"),
        "wg1bench-initdb-" + safe(System.getProperty("user.name")));
  }

  /**
   * The template's name: the binaries' version, and a digest of what initdb takes from the
   * environment (the cluster's locale and the time zone it writes into postgresql.conf).
   */
  static String key(String binaries) {
    Map<String, String> env = new TreeMap<>();
    System.getenv()
        .forEach(
            (k, v) -> {
              if (k.startsWith("LC_") || k.equals("LANG") || k.equals("TZ")) {
                env.put(k, v);
              }
            });
    try {
      Path localtime = Path.of("/etc/localtime");
      if (Files.exists(localtime)) {
        env.put("/etc/localtime", localtime.toRealPath().toString());
      }
    } catch (IOException e) {
      env.put("/etc/localtime", "?");
    }
    return "pg-" + safe(binaries) + "-" + digest(env.toString());
  }

  private static String digest(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String safe(String s) {
    return String.valueOf(s).replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** The template's files into {@code to}, permissions kept (PostgreSQL checks its directory's). */
  private static void copy(Path from, Path to) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(from)) {
      all = s.toList();
    }
    for (Path src : all) {
      Path rel = from.relativize(src);
      if (rel.toString().isEmpty() || rel.toString().equals(MARKER)) {
        continue;
      }
      Path dst = to.resolve(rel.toString());
      if (Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(dst);
        Files.setPosixFilePermissions(dst, Files.getPosixFilePermissions(src));
      } else {
        Files.copy(src, dst, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      }
    }
  }
}
