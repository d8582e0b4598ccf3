package dev.wg1bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Versions of wg1bench and what it bundles, filtered in from the pom at build time. */
public final class BuildInfo {
  private static final Properties P = load();

  private BuildInfo() {}

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("/wg1bench-build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  public static String version() {
    return P.getProperty("version", "dev");
  }

  /** Version of the zonky binaries BOM, e.g. 17.11.0 = PostgreSQL 17.11. */
  public static String embeddedBinaries() {
    return P.getProperty("embedded.binaries", "unknown");
  }

  public static String jmh() {
    return P.getProperty("jmh", "unknown");
  }
}
