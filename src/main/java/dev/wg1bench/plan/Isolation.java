package dev.wg1bench.plan;

import java.sql.Connection;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Transaction isolation levels, named as the CLI spells them. */
public enum Isolation {
  READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED, "read committed"),
  REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ, "repeatable read"),
  SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE, "serializable");

  private final int jdbcLevel;
  private final String sqlName;

  Isolation(int jdbcLevel, String sqlName) {
    this.jdbcLevel = jdbcLevel;
    this.sqlName = sqlName;
  }

  public int jdbcLevel() {
    return jdbcLevel;
  }

  /** As PostgreSQL names it, e.g. in default_transaction_isolation. */
  public String sqlName() {
    return sqlName;
  }

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Isolation parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
    for (Isolation i : values()) {
      if (i.cliName().equals(t)) {
        return i;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of " + valid());
  }

  public static String valid() {
    return Arrays.stream(values()).map(Isolation::cliName).collect(Collectors.joining(", "));
  }
}
