package dev.wg1bench.load.ssb;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Star Schema Benchmark data generator producing the exact bytes of eyalroz/ssb-dbgen (GENERATOR.md
 * sections 2 to 14).
 *
 * <p>Every row's random streams are positioned with the closed form of section 2.7, so any chunk of
 * any table can be generated independently of the others (in any thread) and the concatenation of a
 * table's chunks equals the whole table. Instances are immutable and thread-safe; each {@link
 * #write} call uses its own buffers and streams.
 */
public final class SsbGenerator {
  // Base counts of section 5.1.
  private static final long B_PART = 200000L;
  private static final long B_SUPP = 2000L;
  private static final long B_CUST = 30000L;
  private static final long B_DATE = 2557L;
  private static final long B_LINE = 1500000L;

  private static final int BUFFER_SIZE = 1 << 18;

  private final double scaleFactor;
  private final boolean dbgenTruncatedDate;
  private final long parts;
  private final long suppliers;
  private final long customers;

  /** D_trunc of section 14: the order streams always start after this many states. */
  private final long dateTrunc;

  private final long dateRows;
  private final long orders;
  private final SsbRows rows;
  private volatile long lineorderLines = -1;

  /**
   * Creates a generator.
   *
   * @param scaleFactor SSB scale factor, &gt; 0 (fractional values scale the base counts, section
   *     5.1)
   * @param dbgenTruncatedDate true to reproduce dbgen's truncated date table at fractional SF;
   *     false for the complete 2557-day table (section 14)
   */
  public SsbGenerator(double scaleFactor, boolean dbgenTruncatedDate) {
    if (!(scaleFactor > 0)) {
      throw new IllegalArgumentException("scale factor must be > 0, got " + scaleFactor);
    }
    if (Double.isInfinite(scaleFactor)) {
      throw new IllegalArgumentException("scale factor must be finite, got " + scaleFactor);
    }
    this.scaleFactor = scaleFactor;
    this.dbgenTruncatedDate = dbgenTruncatedDate;
    long s;
    long bPart;
    long bSupp;
    long bCust;
    long bDate;
    long bLine;
    if (scaleFactor >= 1) {
      s = (long) scaleFactor;
      bPart = B_PART;
      bSupp = B_SUPP;
      bCust = B_CUST;
      bDate = B_DATE;
      bLine = B_LINE;
    } else {
      s = 1;
      bPart = scaled(B_PART, scaleFactor);
      bSupp = scaled(B_SUPP, scaleFactor);
      bCust = scaled(B_CUST, scaleFactor);
      bDate = scaled(B_DATE, scaleFactor);
      bLine = scaled(B_LINE, scaleFactor);
    }
    // Part rows use log2, the lineorder part-key bound uses ln: the 12.5 quirk.
    this.parts = bPart * (64 - Long.numberOfLeadingZeros(s));
    long partKeyMax = bPart * ((long) Math.floor(Math.log((double) s)) + 1);
    this.suppliers = bSupp * s;
    this.customers = bCust * s;
    this.dateTrunc = bDate;
    this.dateRows = dbgenTruncatedDate ? bDate : SsbDates.FULL_DATE_DAYS;
    this.orders = bLine * s;
    this.rows = new SsbRows(Dists.get(), partKeyMax, suppliers, customers, dateTrunc);
  }

  private static long scaled(long base, double sf) {
    return Math.max(1L, (long) ((double) base * sf));
  }

  /** The scale factor given to the constructor. */
  public double scaleFactor() {
    return scaleFactor;
  }

  /** Whether the date table is truncated as dbgen does at fractional SF. */
  public boolean dbgenTruncatedDate() {
    return dbgenTruncatedDate;
  }

  /** Number of orders (the unit of lineorder chunks). */
  public long orderCount() {
    return orders;
  }

  /**
   * Number of chunkable units of a table: rows, except orders for lineorder.
   *
   * @param t the table
   * @return the last valid {@link Chunk#lastRow()} for the table
   */
  public long unitCount(SsbTable t) {
    switch (t) {
      case PART:
        return parts;
      case SUPPLIER:
        return suppliers;
      case CUSTOMER:
        return customers;
      case DATE:
        return dateRows;
      case LINEORDER:
        return orders;
      default:
        throw new IllegalArgumentException("unknown table " + t);
    }
  }

  /**
   * Rows of a table in its {@code .tbl} file; for lineorder the number of lines (computed on first
   * use by replaying the line-count stream, then cached).
   */
  public long rowCount(SsbTable t) {
    if (t != SsbTable.LINEORDER) {
      return unitCount(t);
    }
    long n = lineorderLines;
    if (n < 0) {
      // Only stream 43 decides the number of lines of each order (12.2 step 6).
      Rng lcnt = Rng.at(SsbRows.SEED_O_LCNT, dateTrunc);
      n = 0;
      for (long o = 0; o < orders; o++) {
        n += lcnt.draw(1, SsbRows.LINES_MAX);
      }
      lineorderLines = n;
    }
    return n;
  }

  /**
   * Splits a table into up to n independent chunks whose concatenated output equals the whole table
   * byte for byte. Lineorder is split by order ranges.
   */
  public List<Chunk> chunks(SsbTable t, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("number of chunks must be >= 1, got " + n);
    }
    long units = unitCount(t);
    long k = Math.min(n, units);
    List<Chunk> list = new ArrayList<>((int) k);
    // Even split without overflow: the first (units mod k) chunks get one extra row.
    long base = units / k;
    long extra = units % k;
    long first = 1;
    for (long i = 0; i < k; i++) {
      long size = base + (i < extra ? 1 : 0);
      list.add(new Chunk(t, first, first + size - 1));
      first += size;
    }
    return Collections.unmodifiableList(list);
  }

  /** The whole table as one chunk. */
  public Chunk all(SsbTable t) {
    return new Chunk(t, 1, unitCount(t));
  }

  /**
   * Writes the chunk's rows in {@code .tbl} format (dbgen's exact bytes) to out. The stream is
   * neither flushed nor closed.
   */
  public void write(Chunk c, OutputStream out) throws IOException {
    generate(c, new RowWriter(out, true, BUFFER_SIZE));
  }

  /**
   * Writes the chunk's rows as PostgreSQL COPY text with delimiter {@code |}: the same bytes as
   * {@link #write} minus the trailing separator of every line. No SSB field contains a backslash,
   * tab or line break, so no escaping is needed.
   */
  public void writeCopyText(Chunk c, OutputStream out) throws IOException {
    generate(c, new RowWriter(out, false, BUFFER_SIZE));
  }

  /** Writes the whole table in {@code .tbl} format (= all chunks in order). */
  public void writeAll(SsbTable t, OutputStream out) throws IOException {
    write(all(t), out);
  }

  private void generate(Chunk c, RowWriter w) throws IOException {
    long units = unitCount(c.table());
    if (c.lastRow() > units) {
      throw new IllegalArgumentException(
          "chunk "
              + c
              + " exceeds the "
              + units
              + " rows of "
              + c.table().tableName()
              + " at scale factor "
              + scaleFactor);
    }
    switch (c.table()) {
      case PART:
        rows.part(c.firstRow(), c.lastRow(), w);
        break;
      case SUPPLIER:
        rows.supplier(c.firstRow(), c.lastRow(), w);
        break;
      case CUSTOMER:
        rows.customer(c.firstRow(), c.lastRow(), w);
        break;
      case DATE:
        SsbDates.write(c.firstRow(), c.lastRow(), w);
        break;
      case LINEORDER:
        rows.lineorder(c.firstRow(), c.lastRow(), w);
        break;
      default:
        throw new IllegalArgumentException("unknown table " + c.table());
    }
    w.drain();
  }
}
