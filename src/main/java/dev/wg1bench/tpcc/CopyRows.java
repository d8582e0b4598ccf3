package dev.wg1bench.tpcc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Rows of one table sent through COPY in text format, a buffer at a time. The generated values are
 * ASCII letters, digits, points and spaces, so no field needs escaping.
 */
final class CopyRows implements AutoCloseable {
  private static final int FLUSH_AT = 1 << 16;

  private final CopyIn in;
  private final StringBuilder row = new StringBuilder(FLUSH_AT + 1024);
  private long rows;

  CopyRows(Connection c, String table) throws SQLException {
    this.in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN");
  }

  /** The buffer the next row is written into, fields separated by {@link #tab()}. */
  StringBuilder row() {
    return row;
  }

  /** A field separator appended to the current row; returns the buffer. */
  StringBuilder tab() {
    return row.append('\t');
  }

  /** A SQL NULL field appended to the current row; returns the buffer. */
  StringBuilder nul() {
    return row.append("\\N");
  }

  /** Ends the current row; sends the buffer once it is full. */
  void end() throws SQLException {
    row.append('\n');
    rows++;
    if (row.length() >= FLUSH_AT) {
      flush();
    }
  }

  private void flush() throws SQLException {
    byte[] b = row.toString().getBytes(StandardCharsets.US_ASCII);
    in.writeToCopy(b, 0, b.length);
    row.setLength(0);
  }

  /** Sends the rest and ends the COPY; returns the rows it sent. */
  long finish() throws SQLException {
    flush();
    in.endCopy();
    return rows;
  }

  @Override
  public void close() throws SQLException {
    if (in.isActive()) {
      in.cancelCopy();
    }
  }
}
