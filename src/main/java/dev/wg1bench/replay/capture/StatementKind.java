package dev.wg1bench.replay.capture;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a statement is, by the words that start it: transaction control, the logging's own
 * maintenance a replay must not repeat, or a change to data or schema.
 */
public final class StatementKind {
  private StatementKind() {}

  /** What a statement does to a transaction block. */
  public enum TxControl {
    NONE,
    BEGIN,
    END
  }

  /** BEGIN / START TRANSACTION open a block; COMMIT, END, ROLLBACK, ABORT and PREPARE end it. */
  public static TxControl txControl(String sql) {
    String s = SqlText.stripComments(sql).strip().toLowerCase(Locale.ROOT);
    String w = firstWord(s);
    return switch (w) {
      case "begin" -> TxControl.BEGIN;
      case "start" -> s.matches("start\\s+transaction\\b.*") ? TxControl.BEGIN : TxControl.NONE;
      case "commit", "end", "abort" ->
          s.matches("commit\\s+prepared\\b.*") ? TxControl.NONE : TxControl.END;
      case "rollback" ->
          s.matches("rollback\\s+(to|prepared)\\b.*")
                  || s.matches("rollback\\s+(work|transaction)\\s+to\\b.*")
              ? TxControl.NONE
              : TxControl.END;
      case "prepare" -> s.matches("prepare\\s+transaction\\b.*") ? TxControl.END : TxControl.NONE;
      default -> TxControl.NONE;
    };
  }

  /**
   * Statements about logging itself, which a capture sets and a replay must not repeat: ALTER
   * SYSTEM, a reload, a log rotation, SET log_... ; null when the statement is none of these.
   */
  public static String maintenance(String sql) {
    String s = SqlText.stripComments(sql).strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (s.startsWith("alter system ")) {
      return "ALTER SYSTEM";
    }
    if (s.contains("pg_reload_conf(") || s.contains("pg_rotate_logfile(")) {
      return "reload/rotate";
    }
    if (s.matches("set (session |local )?log_\\w+.*")
        || s.matches("reset log_\\w+.*")
        || s.matches(".*set_config\\( ?'log_.*")) {
      return "SET log_*";
    }
    return null;
  }

  /**
   * What a statement changes, by the word that starts it: INSERT, UPDATE, DELETE, MERGE, TRUNCATE,
   * COPY (from a client), DDL (CREATE, ALTER, DROP, ...), or a data-changing WITH; null for a
   * statement that reads or controls the session. A SELECT calling a function that writes, or
   * SELECT INTO, is not seen.
   */
  public static String dataChange(String sql) {
    String s = SqlText.stripComments(sql).strip().toLowerCase(Locale.ROOT);
    String w = firstWord(s);
    return switch (w) {
      case "insert", "update", "delete", "merge", "truncate" -> w.toUpperCase(Locale.ROOT);
      case "copy" -> s.matches("(?s)copy\\b.*\\bfrom\\b.*") ? "COPY" : null;
      case "create", "alter", "drop", "comment", "grant", "revoke", "reindex", "cluster" ->
          s.startsWith("alter system") ? null : "DDL";
      case "with" -> {
        Matcher m = Pattern.compile("\\b(insert|update|delete|merge)\\b").matcher(s);
        yield m.find() ? m.group(1).toUpperCase(Locale.ROOT) : null;
      }
      default -> null;
    };
  }

  private static String firstWord(String s) {
    int i = 0;
    while (i < s.length() && Character.isLetter(s.charAt(i))) {
      i++;
    }
    return s.substring(0, i);
  }
}
