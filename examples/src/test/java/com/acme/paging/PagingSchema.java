package com.acme.paging;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * {@value #ROWS} events in id order, paged {@value #PAGE} at a time; an op reads one deep page, a
 * random page of the last half ({@code -D from=PAGE} moves where deep starts).
 */
public abstract class PagingSchema implements JdbcWorkload {
  static final int ROWS = 200_000;
  static final int PAGE = 20;

  @Override
  public void setUp(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS events (id bigint PRIMARY KEY, created_at timestamptz NOT"
              + " NULL, kind text NOT NULL, payload text NOT NULL)");
      try (ResultSet r = st.executeQuery("SELECT count(*) FROM events")) {
        r.next();
        if (r.getLong(1) == ROWS) {
          return;
        }
      }
      st.execute("TRUNCATE events");
      st.execute(
          "INSERT INTO events SELECT g, now() - g * interval '1 second', 'kind ' || g % 7,"
              + " repeat('x', 80) FROM generate_series(1, "
              + ROWS
              + ") g");
      st.execute("ANALYZE events");
    }
  }

  /** The page this op reads, from 0. */
  static int page(Op op) {
    int pages = ROWS / PAGE;
    int from = Math.min(op.intParam("from", pages / 2), pages - 1);
    return from + op.random().nextInt(pages - from);
  }
}
