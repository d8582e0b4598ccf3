package com.acme.paging;

import dev.wg1bench.api.Op;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** A deep page by OFFSET: the server reads and throws away every row before it. */
public class OffsetPage extends PagingSchema {
  @Override
  public void op(Op op) throws Exception {
    try (PreparedStatement ps =
        op.connection()
            .prepareStatement(
                "SELECT id, created_at, kind, payload FROM events ORDER BY id LIMIT ? OFFSET ?")) {
      ps.setInt(1, PAGE);
      ps.setLong(2, (long) page(op) * PAGE);
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
