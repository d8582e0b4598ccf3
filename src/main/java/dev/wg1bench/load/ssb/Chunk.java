package dev.wg1bench.load.ssb;

/**
 * An inclusive, 1-based range of rows of one table (GENERATOR.md section 2.7, closed form); for
 * {@link SsbTable#LINEORDER} the rows are orders, each producing 1 to 7 lines.
 *
 * @param table the table
 * @param firstRow first row (or order) number, at least 1
 * @param lastRow last row (or order) number, inclusive
 */
public record Chunk(SsbTable table, long firstRow, long lastRow) {

  /** Validates the range. */
  public Chunk {
    if (table == null) {
      throw new IllegalArgumentException("table must not be null");
    }
    if (firstRow < 1 || lastRow < firstRow) {
      throw new IllegalArgumentException(
          "bad chunk range " + firstRow + ".." + lastRow + " for " + table.tableName());
    }
  }

  /** Number of rows (orders for lineorder) in this chunk. */
  public long rows() {
    return lastRow - firstRow + 1;
  }
}
