package dev.wg1bench.replay.play;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;

/**
 * HikariCP's judgement of a replayed statement's error, overridden: HikariCP evicts a connection on
 * SQLSTATE class 08 and also on 0A000, 57P01-3 and 01002, which a replayed log raises as ordinary
 * SQL errors (0A000 is "feature not supported"). Evicting then closes a session's connection in the
 * middle of its transaction block. Only a lost connection (class 08, or an administrator's or a
 * crash's 57P01-57P03) evicts here.
 */
public final class ReplayEvictions implements SQLExceptionOverride {
  // java.lang's: inside this class, a bare Override names HikariCP's enum
  @java.lang.Override
  public Override adjudicate(SQLException e) {
    String s = e.getSQLState();
    if (s != null
        && (s.startsWith("08") || s.equals("57P01") || s.equals("57P02") || s.equals("57P03"))) {
      return Override.CONTINUE_EVICT;
    }
    return Override.DO_NOT_EVICT;
  }
}
