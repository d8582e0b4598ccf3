package dev.wg1bench.cli;

import dev.wg1bench.plan.TargetSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Where to run: shared by the run and init commands. */
public final class TargetOptions {
  @Option(
      names = "--target",
      paramLabel = "[NAME=]URL",
      description = {
        "Server to run against, repeatable for a side-by-side comparison:",
        "jdbc:postgresql://HOST[:PORT]/DB, postgresql://USER@HOST[:PORT]/DB or embedded.",
        "Default for a run and for advise: an embedded PostgreSQL started for it;",
        "init, ssb and experiment need one.",
        "Credentials: from the URL, else PGUSER/PGPASSWORD, else --password-file."
      })
  List<String> targets = new ArrayList<>();

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "File holding the password, bare or in ~/.pgpass format.")
  Path passwordFile;

  /** Parsed targets; the embedded server when none was named. */
  List<TargetSpec> resolve(boolean embeddedByDefault) {
    List<TargetSpec> out = new ArrayList<>();
    for (String t : targets) {
      out.add(TargetSpec.parse(t, System.getenv(), passwordFile));
    }
    if (out.isEmpty() && embeddedByDefault) {
      out.add(TargetSpec.embedded(null));
    }
    return out;
  }
}
