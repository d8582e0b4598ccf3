package dev.wg1bench.cli;

import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.PgBouncerTarget;
import dev.wg1bench.server.TargetKind;
import dev.wg1bench.server.Targets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where to run: shared by the run and init commands. */
public final class TargetOptions {
  @Option(
      names = "--target",
      paramLabel = "[NAME=]URL",
      // one URL form a line: picocli may break a line after ':', so a URL that started mid-line
      // could be cut in two; at the start of its own line it fits the column whole
      description = {
        "Server to run against, repeatable for a side-by-side comparison; one of:",
        "  jdbc:postgresql://HOST[:PORT]/DB",
        "  postgresql://USER@HOST[:PORT]/DB",
        "  embedded",
        "  container:IMAGE (a container started for the run, needs Docker)",
        "  jdbc:tc:postgresql:TAG:///DB (the same, as Testcontainers names it)",
        "Default for a run and for advise: an embedded PostgreSQL started for it; init, ssb and"
            + " experiment need one. Credentials: from the URL, else PGUSER/PGPASSWORD, else"
            + " --password-file."
      })
  List<String> targets = new ArrayList<>();

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "File holding the password, bare or in ~/.pgpass format.")
  Path passwordFile;

  @Option(
      names = "--server-setting",
      paramLabel = "NAME=VALUE",
      description =
          "Server setting a container target is started with (postgres -c NAME=VALUE), "
              + "repeatable; stock settings otherwise. Recorded in the result.")
  List<String> serverSettings = new ArrayList<>();

  @Option(
      names = "--via",
      paramLabel = "POOLER",
      description =
          "Put a pooler in front of every target: pgbouncer:session|transaction|statement"
              + "[,NAME=VALUE...] (pgbouncer.ini settings, e.g. max_prepared_statements=200). "
              + "Runs as a container (needs Docker and the wg1bench/pgbouncer image).")
  String via;

  /** Parsed targets, at least one: none named is a usage error saying {@code needs}. */
  List<TargetSpec> required(String needs) {
    List<TargetSpec> list = resolve(false);
    if (list.isEmpty()) {
      throw new UsageException(needs);
    }
    return list;
  }

  /** Parsed targets; the embedded server when none was named. */
  List<TargetSpec> resolve(boolean embeddedByDefault) {
    List<TargetSpec> out = new ArrayList<>();
    for (String t : targets) {
      out.add(Targets.parse(t, System.getenv(), passwordFile));
    }
    if (out.isEmpty() && embeddedByDefault) {
      out.add(Targets.defaultTarget());
    }
    Map<String, String> settings = serverSettings();
    String pooler = via == null ? null : PgBouncerTarget.checkVia(via);
    List<TargetSpec> provided = new ArrayList<>();
    for (TargetSpec t : out) {
      if (!settings.isEmpty() && !Targets.has(t.kind(), TargetKind.Trait.TAKES_SERVER_SETTINGS)) {
        throw new UsageException(
            "--server-setting applies to container targets only; target "
                + t.name()
                + " is "
                + Targets.label(t.kind())
                + " (its settings are the server's own)");
      }
      if (settings.isEmpty() && pooler == null) {
        provided.add(t);
      } else {
        provided.add(t.withProvision(t.provided().withServerSettings(settings).withVia(pooler)));
      }
    }
    return provided;
  }

  private Map<String, String> serverSettings() {
    Map<String, String> out = new LinkedHashMap<>();
    for (String s : serverSettings) {
      int eq = s.indexOf('=');
      if (eq <= 0 || !s.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        throw new UsageException(
            "--server-setting '" + s + "' is not NAME=VALUE (e.g. shared_buffers=1GB)");
      }
      out.put(s.substring(0, eq), s.substring(eq + 1));
    }
    return out;
  }
}
