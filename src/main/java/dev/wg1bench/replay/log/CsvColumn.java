package dev.wg1bench.replay.log;

import java.util.List;

/**
 * The columns of a csvlog record in the order PostgreSQL writes them (the postgres_log table of the
 * manual's "Using CSV-Format Log Output"). Later versions only ever append columns.
 */
enum CsvColumn {
  LOG_TIME,
  USER_NAME,
  DATABASE_NAME,
  PROCESS_ID,
  CONNECTION_FROM,
  SESSION_ID,
  SESSION_LINE_NUM,
  COMMAND_TAG,
  SESSION_START_TIME,
  VIRTUAL_TRANSACTION_ID,
  TRANSACTION_ID,
  ERROR_SEVERITY,
  SQL_STATE_CODE,
  MESSAGE,
  DETAIL,
  HINT,
  INTERNAL_QUERY,
  INTERNAL_QUERY_POS,
  CONTEXT,
  QUERY,
  QUERY_POS,
  LOCATION,
  /** Since 9.0. */
  APPLICATION_NAME,
  /** Since 13. */
  BACKEND_TYPE,
  /** Since 14, with QUERY_ID. */
  LEADER_PID,
  QUERY_ID;

  /** The column counts of csvlog, oldest first, with the versions that write each. */
  record Layout(int columns, String versions) {}

  static final List<Layout> LAYOUTS =
      List.of(
          new Layout(APPLICATION_NAME.ordinal(), "8.3-8.4"),
          new Layout(BACKEND_TYPE.ordinal(), "9.0-12"),
          new Layout(LEADER_PID.ordinal(), "13"),
          new Layout(QUERY_ID.ordinal() + 1, "14 and later"));

  /** A count of some version, or more than the newest: a later version appends columns. */
  static boolean knownLayout(int columns) {
    return columns > QUERY_ID.ordinal() + 1
        || LAYOUTS.stream().anyMatch(l -> l.columns() == columns);
  }

  /** "22 (PostgreSQL 8.3-8.4), 23 (9.0-12), 24 (13) or 26 (14 and later)", for messages. */
  static String layouts() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < LAYOUTS.size(); i++) {
      Layout l = LAYOUTS.get(i);
      b.append(i == 0 ? "" : i == LAYOUTS.size() - 1 ? " or " : ", ")
          .append(l.columns())
          .append(" (")
          .append(i == 0 ? "PostgreSQL " : "")
          .append(l.versions())
          .append(')');
    }
    return b.toString();
  }

  /** This column of a record as written, empty when empty. */
  String raw(List<String> record) {
    return record.get(ordinal());
  }

  /** This column of a record, null when empty or when the record's version has no such column. */
  String of(List<String> record) {
    return ordinal() < record.size() ? FormatReader.blank(record.get(ordinal())) : null;
  }
}
