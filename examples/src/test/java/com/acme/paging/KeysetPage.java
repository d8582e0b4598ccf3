package com.acme.paging;

import dev.wg1bench.api.Op;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * The same page as {@link OffsetPage} by keyset: the client keeps the last id it showed and asks
 * for the rows after it, which the primary key's index finds directly.
 */
public class KeysetPage extends PagingSchema {
  @Override
  public void op(Op op) throws Exception {
    // ids are 1..ROWS, so the page's predecessor is the last id of the previous page
    long after = (long) page(op) * PAGE;
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement(
                "SELECT id, created_at, kind, payload FROM events WHERE id > ? ORDER BY id"
                    + " LIMIT ?")) {
      ps.setLong(1, after);
      ps.setInt(2, PAGE);
      int n = 0;
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          n++;
        }
      }
      if (n != PAGE) {
        throw new IllegalStateException(n + " rows on a page of " + PAGE);
      }
    }
  }
}
