package dev.wg1bench.server;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.DockerClientFactory;

/** The registry of target kinds: parses {@code --target} text and turns specs into targets. */
public final class Targets {
  /** Every kind, in the order their rules are tried; a new kind is one line here. */
  private static final List<TargetKind> KINDS =
      List.of(
          EmbeddedTarget.KIND, ContainerTarget.KIND, ExternalTarget.KIND, DataSourceTarget.KIND);

  private static final Pattern NAMED = Pattern.compile("([A-Za-z0-9_.\\-]+)=(.*)", Pattern.DOTALL);

  private Targets() {}

  /**
   * Parses {@code --target} text: {@code [NAME=]URL} where URL is of one of the registered kinds
   * ({@code jdbc:postgresql://...}, {@code postgresql://user:pw@host:port/db}, {@code
   * embedded[:MAJOR]}, {@code container:IMAGE}, {@code jdbc:tc:postgresql:TAG:///DB}). Credentials
   * come from the URL, else PGUSER/PGPASSWORD, else the password file.
   */
  public static TargetSpec parse(String text, Map<String, String> env, Path passwordFile) {
    String name = null;
    String url = text.trim();
    if (kindOf(url) == null) {
      Matcher n = NAMED.matcher(url);
      if (n.matches()) {
        name = n.group(1);
        url = n.group(2).trim();
      }
    }
    TargetKind k = kindOf(url);
    if (k == null) {
      throw new UsageException(
          "--target '"
              + TargetSpec.redact(text)
              + "' is not a PostgreSQL URL; expected [NAME=]jdbc:postgresql://HOST[:PORT]/DB,"
              + " [NAME=]postgresql://USER@HOST[:PORT]/DB, embedded or container:IMAGE");
    }
    return k.parse(name, url, text, env, passwordFile);
  }

  /** The target a spec describes (not started). */
  public static Target of(TargetSpec spec) {
    for (TargetKind k : KINDS) {
      if (k.kind().equals(spec.kind())) {
        String via = spec.provided().via();
        // a pooler wraps the target it is in front of; the inner one starts the server
        return via == null
            ? k.open(spec)
            : new PgBouncerTarget(spec, k.open(spec.withProvision(spec.provided().withVia(null))));
      }
    }
    throw new IllegalArgumentException("no target kind " + spec.kind() + " in this build");
  }

  /** Whether a Docker engine answers, for the container targets and PgBouncer in front. */
  public static boolean containersAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** The default target: an embedded server of the bundled major. */
  public static TargetSpec defaultTarget() {
    return EmbeddedTarget.spec(null);
  }

  /** Whether targets of this kind have the trait; the one way to ask what a target is. */
  public static boolean has(TargetSpec.Kind kind, TargetKind.Trait trait) {
    return registered(kind).traits().contains(trait);
  }

  /**
   * As {@link #has(TargetSpec.Kind, TargetKind.Trait)}, for a kind as a result records it (its
   * {@link #label}); false for a label no kind of this build has.
   */
  public static boolean has(String label, TargetKind.Trait trait) {
    for (TargetKind k : KINDS) {
      if (label(k.kind()).equals(label)) {
        return k.traits().contains(trait);
      }
    }
    return false;
  }

  /** A kind as results and messages name it: {@code embedded}, {@code container}, ... */
  public static String label(TargetSpec.Kind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  private static TargetKind registered(TargetSpec.Kind kind) {
    for (TargetKind k : KINDS) {
      if (k.kind().equals(kind)) {
        return k;
      }
    }
    throw new IllegalArgumentException("no target kind " + kind + " in this build");
  }

  private static TargetKind kindOf(String url) {
    for (TargetKind k : KINDS) {
      if (k.accepts(url)) {
        return k;
      }
    }
    return null;
  }
}
