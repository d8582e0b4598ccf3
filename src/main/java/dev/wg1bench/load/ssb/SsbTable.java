package dev.wg1bench.load.ssb;

/** The five SSB tables, in dbgen's generation order (GENERATOR.md sections 0 and 6). */
public enum SsbTable {
  PART("part"),
  SUPPLIER("supplier"),
  CUSTOMER("customer"),
  DATE("date"),
  LINEORDER("lineorder");

  private final String tableName;

  SsbTable(String tableName) {
    this.tableName = tableName;
  }

  /** The dbgen output file name, e.g. {@code part.tbl}. */
  public String fileName() {
    return tableName + ".tbl";
  }

  /** The SQL table name, e.g. {@code part}. */
  public String tableName() {
    return tableName;
  }
}
