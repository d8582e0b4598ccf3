package dev.wg1bench.replay.capture;

import dev.wg1bench.replay.log.LogReader;
import java.util.List;

/** The server settings a capture for replay needs, and what each costs: printed by the CLI. */
public final class CaptureSettings {
  private CaptureSettings() {}

  /** One setting: its line for postgresql.conf and why / at what cost. */
  public record Setting(String line, String why) {}

  public static final List<Setting> SETTINGS =
      List.of(
          new Setting(
              "logging_collector = on",
              "needed for csvlog and jsonlog; takes a server RESTART; a background process writes"
                  + " the files, so backends do not block on stderr"),
          new Setting(
              "log_destination = 'csvlog'",
              "or 'jsonlog' (PostgreSQL 15+), or 'csvlog,jsonlog'; reload. Both carry the session"
                  + " id, user, database, application name, transaction id and SQLSTATE of every"
                  + " line (the ids let replay send a statement that pastes one with its own)"),
          new Setting(
              "log_directory = 'log'",
              "relative to the data directory; make sure it has room (see the cost below)"),
          new Setting(
              "log_statement = 'all'",
              "every statement, with the bind values of extended-protocol ones on a 'parameters:'"
                  + " line; reload. The cost: one log record per statement (roughly 200-500 bytes"
                  + " plus the text); on a busy server expect several percent of throughput and"
                  + " gigabytes an hour"),
          new Setting(
              "log_min_duration_statement = 0",
              "alternative to, or beside, log_statement = 'all': adds each statement's duration,"
                  + " which replay shows per class beside its own; costs about as much"),
          new Setting(
              "log_connections = on",
              "the user, database and application name a session connected with; reload"),
          new Setting(
              "log_disconnections = on",
              "when a session ended, so a replayed one stays connected as long; reload"),
          new Setting(
              "log_parameter_max_length = -1",
              "the default: bind values logged whole; a limit truncates them and such statements"
                  + " replay with the wrong values"),
          new Setting(
              "log_parameter_max_length_on_error = -1",
              "bind values of a statement that fails before it executes (at Bind, e.g. a"
                  + " constant folded to a division by zero): without them it cannot be replayed"
                  + " and is left out, counted; the default 0 logs none"),
          new Setting(
              "log_line_prefix = '" + LogReader.DEFAULT_PREFIX + "'",
              "only for a stderr log (log_destination = 'stderr'): timestamp, user, database,"
                  + " session id and SQLSTATE, so replay compares errors by code; read without"
                  + " --log-line-prefix, as is pgreplay's '"
                  + LogReader.CLASSIC_PREFIX
                  + "' (errors then only counted); another prefix needs --log-line-prefix, e.g."
                  + " one with %x, the transaction id, for statements that paste one"),
          new Setting(
              "log_min_messages = error",
              "optional: keeps warnings out of the log; errors stay, so replay can compare them"
                  + " by SQLSTATE"));

  public static String text() {
    StringBuilder b = new StringBuilder();
    b.append("# Settings for a capture wg1bench replay can read (postgresql.conf, or ALTER SYSTEM")
        .append(" SET ...; then restart for logging_collector, else SELECT pg_reload_conf()):\n");
    for (Setting s : SETTINGS) {
      b.append(s.line()).append('\n');
      b.append("    # ").append(s.why()).append('\n');
    }
    b.append(
        "# Capture: note the time, run the application, then turn log_statement back to 'none'"
            + " (ALTER SYSTEM RESET log_statement; SELECT pg_reload_conf()).\n"
            + "# Those ALTER SYSTEM and pg_reload_conf() statements, autovacuum and wg1bench's own"
            + " sessions are left out of a replay and counted.\n"
            + "# Replay into a copy of the database as it was when the capture began"
            + " (CREATE DATABASE copy TEMPLATE app, or pg_dump/pg_restore).\n");
    return b.toString();
  }
}
