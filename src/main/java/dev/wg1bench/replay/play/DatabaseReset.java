package dev.wg1bench.replay.play;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.server.ClientSettings;
import dev.wg1bench.server.ConnectionFactory;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code --fresh}: the target's database dropped and made again before each trial, from a template
 * database or a pg_dump file, so every trial of a replay that changes data starts from the same
 * state (pgreplay leaves this to the user; a sweep or an advise block cannot). Only the database
 * the target URL names is ever dropped, and only when --fresh asks; the template the tool makes
 * itself ({@code DB_wg1bench_template}) is dropped at the end, a named one is left as it is.
 */
public final class DatabaseReset {
  /** Suffix of the template made from the target's database when none is named. */
  static final String TEMPLATE_SUFFIX = "_wg1bench_template";

  private final String template;
  private final Path dump;

  /** Per target name: its database, and the template made for it (null: named by the user). */
  private final Map<String, String[]> prepared = new LinkedHashMap<>();

  private DatabaseReset(String template, Path dump) {
    this.template = template;
    this.dump = dump;
  }

  /**
   * {@code template} (the tool's own template, made once from the target's database), {@code
   * template=NAME} or {@code dump=FILE}; null for no --fresh.
   */
  public static DatabaseReset parse(String spec) {
    if (spec == null) {
      return null;
    }
    String s = spec.strip();
    if (s.isEmpty() || s.equals("template")) {
      return new DatabaseReset(null, null);
    }
    if (s.startsWith("template=") && s.length() > "template=".length()) {
      return new DatabaseReset(s.substring("template=".length()), null);
    }
    if (s.startsWith("dump=") && s.length() > "dump=".length()) {
      Path f = Path.of(s.substring("dump=".length()));
      if (!Files.isReadable(f)) {
        throw new UsageException("--fresh " + spec + ": no such readable file " + f);
      }
      return new DatabaseReset(null, f);
    }
    throw new UsageException("--fresh " + spec + ": must be template, template=NAME or dump=FILE");
  }

  /** How the target is restored, for the result and the console. */
  public String describe() {
    if (dump != null) {
      return "dump " + dump;
    }
    return template != null ? "template " + template : "template made from the target's database";
  }

  /**
   * Once per target, before its first trial: finds its database, makes the template (or checks the
   * named one exists, or that a restore tool is on PATH for the dump).
   */
  public void prepare(TargetSpec target, PrintStream out) {
    String db;
    try (Connection c = admin(target, null);
        Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT current_database()")) {
      r.next();
      db = r.getString(1);
    } catch (SQLException e) {
      throw failure(target, "cannot read the target's database", e);
    }
    if (List.of("postgres", "template0", "template1").contains(db)) {
      throw new UsageException(
          "--fresh drops and re-creates the target's database, which is "
              + db
              + " here: replay into a copy (e.g. CREATE DATABASE app_copy TEMPLATE app)");
    }
    String made = null;
    if (dump != null) {
      restoreTool();
    } else if (template == null) {
      made = db + TEMPLATE_SUFFIX;
      if (exists(target, made)) {
        throw new RunFailure(
            "--fresh: database "
                + made
                + " already exists (left by an earlier replay?): drop it, or restore from it with"
                + " --fresh template="
                + made,
            null);
      }
      sql(target, "CREATE DATABASE " + quote(made) + " TEMPLATE " + quote(db), "make template");
      out.printf("--fresh: template %s made from %s%n", made, db);
    } else if (!exists(target, template)) {
      throw new UsageException(
          "--fresh template=" + template + ": no such database on " + target.name());
    }
    prepared.put(target.name(), new String[] {db, made});
  }

  /** Before a trial: the target's database dropped and made again from the template or dump. */
  public void restore(TargetSpec target, PrintStream out) {
    String[] p = prepared.get(target.name());
    if (p == null) {
      prepare(target, out);
      p = prepared.get(target.name());
    }
    String db = p[0];
    String from = p[1] != null ? p[1] : template;
    // FORCE (13+) ends the sessions still on it: the replay's own have all closed by now
    sql(target, "DROP DATABASE IF EXISTS " + quote(db) + " WITH (FORCE)", "drop " + db);
    if (dump == null) {
      sql(target, "CREATE DATABASE " + quote(db) + " TEMPLATE " + quote(from), "re-create " + db);
      out.printf("--fresh: %s re-created from template %s%n", db, from);
    } else {
      sql(target, "CREATE DATABASE " + quote(db), "re-create " + db);
      load(target, db);
      out.printf("--fresh: %s re-created from %s%n", db, dump);
    }
  }

  /** Drops the templates the tool made; the target's databases stay as the last trial left them. */
  public void drop(TargetSpec target) {
    String[] p = prepared.remove(target.name());
    if (p != null && p[1] != null) {
      sql(target, "DROP DATABASE IF EXISTS " + quote(p[1]), "drop template " + p[1]);
    }
  }

  private void load(TargetSpec target, String db) {
    boolean custom = custom();
    String tool = restoreTool();
    Endpoint e = Endpoint.of(target.jdbcUrl());
    List<String> cmd = new ArrayList<>(List.of(tool, "-h", e.host, "-p", e.port));
    if (target.user() != null) {
      cmd.addAll(List.of("-U", target.user()));
    }
    if (custom) {
      cmd.addAll(List.of("--no-password", "-d", db, dump.toString()));
    } else {
      cmd.addAll(
          List.of("-X", "-q", "-w", "-v", "ON_ERROR_STOP=1", "-d", db, "-f", dump.toString()));
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // the password travels in the child's environment, never on its command line
    if (target.password() != null) {
      pb.environment().put("PGPASSWORD", target.password().reveal());
    }
    try {
      Process proc = pb.start();
      String text = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!proc.waitFor(1, TimeUnit.HOURS)) {
        proc.destroyForcibly();
        throw new RunFailure("--fresh dump=" + dump + ": " + tool + " took over an hour", null);
      }
      if (proc.exitValue() != 0) {
        String last = text.strip().lines().reduce((a, b) -> b).orElse("no output");
        throw new RunFailure(
            "--fresh dump=" + dump + ": " + new File(tool).getName() + " failed: " + last, null);
      }
    } catch (IOException ex) {
      throw new RunFailure("--fresh dump=" + dump + ": " + ex.getMessage(), ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new RunFailure("--fresh dump=" + dump + ": interrupted", ex);
    }
  }

  /** A custom-format dump (pg_dump -Fc) starts with PGDMP; a plain one is SQL. */
  private boolean custom() {
    try (InputStream in = Files.newInputStream(dump)) {
      return new String(in.readNBytes(5), StandardCharsets.US_ASCII).equals("PGDMP");
    } catch (IOException e) {
      throw new RunFailure("--fresh dump=" + dump + ": " + e.getMessage(), e);
    }
  }

  /** pg_restore for a custom-format dump, psql for a plain one: whichever the file needs. */
  private String restoreTool() {
    boolean custom = custom();
    String name = custom ? "pg_restore" : "psql";
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(d, name);
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    throw new RunFailure(
        "--fresh dump=" + dump + ": " + name + " is not on PATH (needed to restore this dump)",
        null);
  }

  private static boolean exists(TargetSpec target, String db) {
    try (Connection c = admin(target, MAINTENANCE);
        var ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      ps.setString(1, db);
      try (ResultSet r = ps.executeQuery()) {
        return r.next();
      }
    } catch (SQLException e) {
      throw failure(target, "cannot list databases", e);
    }
  }

  private static void sql(TargetSpec target, String sql, String doing) {
    try (Connection c = admin(target, MAINTENANCE);
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw failure(target, "cannot " + doing, e);
    }
  }

  /** The server's maintenance database: DROP and CREATE DATABASE cannot run inside the target's. */
  private static final String MAINTENANCE = "postgres";

  /**
   * On the tool's own copy of pgjdbc: the replay's warm-up and its trials restore between them, and
   * these statements through the sessions' driver would reshape its compiled code just before the
   * trial (a new type at a call site the JIT had seen one type at undoes the compiled code).
   */
  private static Connection admin(TargetSpec target, String db) throws SQLException {
    return new ConnectionFactory(target.inDatabase(db), ClientSettings.defaults()).openOwn();
  }

  private static RunFailure failure(TargetSpec target, String doing, SQLException e) {
    return new RunFailure(
        "--fresh on " + target.name() + ": " + doing + ": " + ConnectionFactory.oneLine(e), e);
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** Host and port of a jdbc:postgresql URL, for the restore tools. */
  private record Endpoint(String host, String port) {
    static Endpoint of(String url) {
      String rest = url.substring("jdbc:postgresql://".length());
      int slash = rest.indexOf('/');
      String hostPort = slash < 0 ? rest : rest.substring(0, slash);
      int q = hostPort.indexOf('?');
      hostPort = q < 0 ? hostPort : hostPort.substring(0, q);
      // a list of hosts: the first, as pgjdbc tries it first
      hostPort = hostPort.split(",")[0];
      int colon = hostPort.lastIndexOf(':');
      boolean bracket = hostPort.endsWith("]");
      if (colon < 0 || bracket) {
        return new Endpoint(hostPort.isEmpty() ? "localhost" : hostPort, "5432");
      }
      return new Endpoint(hostPort.substring(0, colon), hostPort.substring(colon + 1));
    }
  }
}
