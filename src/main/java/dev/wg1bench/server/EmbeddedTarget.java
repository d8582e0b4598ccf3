package dev.wg1bench.server;

import dev.wg1bench.plan.TargetSpec;
import java.io.PrintStream;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code embedded[:MAJOR]}: a throw-away server started for the run ({@link EmbeddedServer}). */
public final class EmbeddedTarget implements Target {
  public static final TargetSpec.Kind EMBEDDED = new TargetSpec.Kind("EMBEDDED");

  private static final Pattern SYNTAX = Pattern.compile("embedded(?::(\\d+))?");

  static final TargetKind KIND =
      new TargetKind(
          EMBEDDED,
          url -> SYNTAX.matcher(url).matches(),
          (name, url, text, env, pwFile) -> parse(name, url),
          EmbeddedTarget::new,
          Set.of(TargetKind.Trait.ONE_PER_PROCESS, TargetKind.Trait.STOCK_SETTINGS));

  /** {@code embedded[:MAJOR]}, named {@code name} when the option gave one. */
  private static TargetSpec parse(String name, String url) {
    Matcher m = SYNTAX.matcher(url);
    m.matches();
    TargetSpec t = spec(m.group(1));
    return name == null
        ? t
        : new TargetSpec(name, EMBEDDED, null, t.user(), t.embeddedVersion(), null);
  }

  private final TargetSpec wanted;
  private EmbeddedServer server;

  private EmbeddedTarget(TargetSpec wanted) {
    this.wanted = wanted;
  }

  /** An embedded server of {@code major} (null: the bundled one). */
  public static TargetSpec spec(String major) {
    String name = major == null ? "embedded" : "embedded:" + major;
    return new TargetSpec(name, EMBEDDED, null, "postgres", major, null);
  }

  @Override
  public TargetSpec spec() {
    return server == null ? wanted : server.target();
  }

  @Override
  public void start(int connections, PrintStream out) {
    long t0 = System.nanoTime();
    server = EmbeddedServer.start(wanted, connections);
    out.printf(
        "target %s: started an embedded PostgreSQL in %.1f s at %s (data in %s, removed at exit)%n",
        wanted.name(),
        (System.nanoTime() - t0) / 1e9,
        server.target().jdbcUrl(),
        server.dataDirectory());
  }

  @Override
  public boolean fresh() {
    return true;
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
