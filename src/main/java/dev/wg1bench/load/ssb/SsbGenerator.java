package dev.wg1bench.load.ssb;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
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
  // Seeds of the streams that are drawn from (section 2.6); the others never affect output.
  private static final long SEED_P_MFG = 1L;
  private static final long SEED_P_BRND = 46831694L;
  private static final long SEED_P_TYPE = 1841581359L;
  private static final long SEED_P_SIZE = 1193163244L;
  private static final long SEED_P_CNTR = 727633698L;
  private static final long SEED_O_ODATE = 1066728069L;
  private static final long SEED_L_QTY = 209208115L;
  private static final long SEED_L_DCNT = 554590007L;
  private static final long SEED_L_TAX = 721958466L;
  private static final long SEED_L_SMODE = 675466456L;
  private static final long SEED_L_PKEY = 1808217256L;
  private static final long SEED_L_SKEY = 2095021727L;
  private static final long SEED_L_CDTE = 904914315L;
  private static final long SEED_C_ADDR = 881155353L;
  private static final long SEED_C_NTRG = 1489529863L;
  private static final long SEED_C_PHNE = 1521138112L;
  private static final long SEED_C_MSEG = 1140279430L;
  private static final long SEED_S_ADDR = 706178559L;
  private static final long SEED_S_NTRG = 110356601L;
  private static final long SEED_P_NAME = 709314158L;
  private static final long SEED_O_PRIO = 591449447L;
  private static final long SEED_O_CKEY = 851767375L;
  private static final long SEED_O_LCNT = 1434868289L;
  private static final long SEED_P_CAT = 637858759L;
  private static final long SEED_P_CITY = 1495190827L;

  // Boundaries (states reserved per row) of the streams whose usage varies, section 2.6.
  private static final int ADDR_BOUNDARY = 9;
  private static final int PHONE_BOUNDARY = 3;
  private static final int COLORS_BOUNDARY = 92;
  private static final int LINES_MAX = 7;

  // Base counts of section 5.1.
  private static final long B_PART = 200000L;
  private static final long B_SUPP = 2000L;
  private static final long B_CUST = 30000L;
  private static final long B_DATE = 2557L;
  private static final long B_LINE = 1500000L;

  /** Order dates are U(0, 2405) indexes into the 2557-day list (12.2 step 1). */
  private static final long ORDER_DATE_MAX = 2405L;

  /** Days 1992-01-01 .. 1998-12-31 (11.1, 12.1). */
  static final int FULL_DATE_DAYS = 2557;

  private static final LocalDate FIRST_DAY = LocalDate.of(1992, 1, 1);

  private static final byte[] ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MFGR = ascii("MFGR#");
  private static final byte[] SUPPLIER_PREFIX = ascii("Supplier#");
  private static final byte[] CUSTOMER_PREFIX = ascii("Customer#");

  /** The 12.1 date list as YYYYMMDD bytes, shared by all instances. */
  private static final byte[][] DATE_KEYS = buildDateKeys();

  private static final int BUFFER_SIZE = 1 << 18;

  private final double scaleFactor;
  private final boolean dbgenTruncatedDate;
  private final long parts;
  private final long partKeyMax;
  private final long suppliers;
  private final long customers;

  /** D_trunc of section 14: the order streams always start after this many states. */
  private final long dateTrunc;

  private final long dateRows;
  private final long orders;
  private final Dists dists;
  private final NationInfo[] nationInfo;
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
    this.partKeyMax = bPart * ((long) Math.floor(Math.log((double) s)) + 1);
    this.suppliers = bSupp * s;
    this.customers = bCust * s;
    this.dateTrunc = bDate;
    this.dateRows = dbgenTruncatedDate ? bDate : FULL_DATE_DAYS;
    this.orders = bLine * s;
    this.dists = Dists.get();
    this.nationInfo = buildNations(dists);
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
      Rng lcnt = Rng.at(SEED_O_LCNT, dateTrunc);
      n = 0;
      for (long o = 0; o < orders; o++) {
        n += lcnt.draw(1, LINES_MAX);
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
        part(c.firstRow(), c.lastRow(), w);
        break;
      case SUPPLIER:
        supplier(c.firstRow(), c.lastRow(), w);
        break;
      case CUSTOMER:
        customer(c.firstRow(), c.lastRow(), w);
        break;
      case DATE:
        date(c.firstRow(), c.lastRow(), w);
        break;
      case LINEORDER:
        lineorder(c.firstRow(), c.lastRow(), w);
        break;
      default:
        throw new IllegalArgumentException("unknown table " + c.table());
    }
    w.drain();
  }

  // ---------------------------------------------------------------- part (section 8)

  private void part(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    Rng name = Rng.at(SEED_P_NAME, COLORS_BOUNDARY * skip);
    Rng mfg = Rng.at(SEED_P_MFG, skip);
    Rng cat = Rng.at(SEED_P_CAT, skip);
    Rng brnd = Rng.at(SEED_P_BRND, skip);
    Rng type = Rng.at(SEED_P_TYPE, skip);
    Rng size = Rng.at(SEED_P_SIZE, skip);
    Rng cntr = Rng.at(SEED_P_CNTR, skip);
    Dists.Dist colors = dists.colors;
    int nc = colors.size();
    int[] a = new int[nc];
    for (long k = first; k <= last; k++) {
      // Color permutation, 4.4: a fresh identity array each row, nc draws (= boundary).
      for (int i = 0; i < nc; i++) {
        a[i] = i;
      }
      for (int i = 0; i < nc; i++) {
        int t = (int) name.draw(0, nc - 1);
        int tmp = a[i];
        a[i] = a[t];
        a[t] = tmp;
      }
      long m = mfg.draw(1, 5);
      long ca = cat.draw(1, 5);
      long b = brnd.draw(1, 40);
      int ty = dists.types.pick(type);
      long sz = size.draw(1, 50);
      int co = dists.containers.pick(cntr);

      w.num(k);
      w.raw(colors.bytes[a[1]]);
      w.rawByte((byte) ' ');
      w.raw(colors.bytes[a[2]]);
      w.sep();
      w.raw(MFGR);
      w.rawNum(m);
      w.sep();
      w.raw(MFGR);
      w.rawNum(m);
      w.rawNum(ca);
      w.sep();
      w.raw(MFGR);
      w.rawNum(m);
      w.rawNum(ca);
      w.rawNum(b);
      w.sep();
      w.str(colors.bytes[a[0]]);
      w.str(dists.types.bytes[ty]);
      w.num(sz);
      w.str(dists.containers.bytes[co]);
      w.endRow();
    }
  }

  // ---------------------------------------------------- supplier and customer (9, 10)

  /** Per-nation constant text: name, region, 9-character city prefix, phone country code. */
  private static final class NationInfo {
    final byte[] name;
    final byte[] region;
    final byte[] cityPrefix;
    final long countryCode;

    NationInfo(byte[] name, byte[] region, byte[] cityPrefix, long countryCode) {
      this.name = name;
      this.region = region;
      this.cityPrefix = cityPrefix;
      this.countryCode = countryCode;
    }
  }

  private static NationInfo[] buildNations(Dists d) {
    NationInfo[] info = new NationInfo[d.nations.size()];
    for (int i = 0; i < info.length; i++) {
      byte[] name = d.nations.bytes[i];
      // 3.4: the nation's cumulative weight is its region's index.
      byte[] region = d.regions.bytes[(int) d.nations.cumulative[i]];
      // 4.3: first 9 characters, right-padded with spaces.
      byte[] city = new byte[9];
      for (int j = 0; j < 9; j++) {
        city[j] = j < name.length ? name[j] : (byte) ' ';
      }
      info[i] = new NationInfo(name, region, city, 10 + (i % 90));
    }
    return info;
  }

  /** Address field of 4.1; returns the number of draws made so the caller can jump. */
  private static int address(Rng s, RowWriter w) {
    int len = (int) s.draw(6, 24);
    int draws = 1;
    long v = 0;
    for (int i = 0; i < len; i++) {
      if (i % 5 == 0) {
        v = s.draw(0, 2147483647L);
        draws++;
      }
      w.rawByte(ALPHABET[(int) (v % 64)]);
      v /= 64;
    }
    w.sep();
    return draws;
  }

  /** City (4.3), nation, region and phone (4.2) fields, in this column order. */
  private static void cityNationRegionPhone(NationInfo n, Rng city, Rng phone, RowWriter w) {
    w.raw(n.cityPrefix);
    w.rawNum(city.draw(0, 9));
    w.sep();
    w.str(n.name);
    w.str(n.region);
    long a = phone.draw(100, 999);
    long b = phone.draw(100, 999);
    long c = phone.draw(1000, 9999);
    w.rawPadded(n.countryCode, 2);
    w.rawByte((byte) '-');
    w.rawPadded(a, 3);
    w.rawByte((byte) '-');
    w.rawPadded(b, 3);
    w.rawByte((byte) '-');
    w.rawPadded(c, 4);
    w.sep();
  }

  private void supplier(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    Rng addr = Rng.at(SEED_S_ADDR, ADDR_BOUNDARY * skip);
    Rng ntrg = Rng.at(SEED_S_NTRG, skip);
    Rng city = Rng.at(SEED_P_CITY, skip);
    // Suppliers use the customer phone stream 28 (section 6).
    Rng phone = Rng.at(SEED_C_PHNE, PHONE_BOUNDARY * skip);
    for (long k = first; k <= last; k++) {
      w.num(k);
      w.raw(SUPPLIER_PREFIX);
      w.rawPadded(k, 9);
      w.sep();
      int used = address(addr, w);
      addr.advance(ADDR_BOUNDARY - used);
      NationInfo n = nationInfo[(int) ntrg.draw(0, nationInfo.length - 1)];
      cityNationRegionPhone(n, city, phone, w);
      w.endRow();
    }
  }

  private void customer(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    Rng addr = Rng.at(SEED_C_ADDR, ADDR_BOUNDARY * skip);
    Rng ntrg = Rng.at(SEED_C_NTRG, skip);
    Rng mseg = Rng.at(SEED_C_MSEG, skip);
    // Streams 49 and 28 continue after the states the supplier rows consumed (section 6).
    Rng city = Rng.at(SEED_P_CITY, suppliers + skip);
    Rng phone = Rng.at(SEED_C_PHNE, PHONE_BOUNDARY * (suppliers + skip));
    for (long k = first; k <= last; k++) {
      w.num(k);
      w.raw(CUSTOMER_PREFIX);
      w.rawPadded(k, 9);
      w.sep();
      int used = address(addr, w);
      addr.advance(ADDR_BOUNDARY - used);
      NationInfo n = nationInfo[(int) ntrg.draw(0, nationInfo.length - 1)];
      cityNationRegionPhone(n, city, phone, w);
      w.str(dists.segments.bytes[dists.segments.pick(mseg)]);
      w.endRow();
    }
  }

  // ---------------------------------------------------------------- date (section 11)

  private static final byte[][] MONTHS =
      asciiAll(
          "January",
          "February",
          "March",
          "April",
          "May",
          "June",
          "July",
          "August",
          "September",
          "October",
          "November",
          "December");
  private static final byte[][] WEEKDAYS =
      asciiAll("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday");
  private static final byte[] CHRISTMAS = ascii("Christmas");
  private static final byte[] SUMMER = ascii("Summer");
  private static final byte[] WINTER = ascii("Winter");
  private static final byte[] SPRING = ascii("Spring");
  private static final byte[] FALL = ascii("Fall");
  private static final byte[] EMPTY = new byte[0];

  private static void date(long first, long last, RowWriter w) throws IOException {
    for (long k = first; k <= last; k++) {
      LocalDate day = FIRST_DAY.plusDays(k - 1);
      int y = day.getYear();
      int mo = day.getMonthValue();
      int d = day.getDayOfMonth();
      int doy = day.getDayOfYear();
      int wd = day.getDayOfWeek().getValue() % 7; // Sunday = 0
      int dnw = ((wd + 1) % 7) + 1;
      byte[] month = MONTHS[mo - 1];

      w.raw(DATE_KEYS[(int) (k - 1)]);
      w.sep();
      w.raw(month);
      w.rawByte((byte) ' ');
      w.rawNum(d);
      w.rawByte((byte) ',');
      w.rawByte((byte) ' ');
      w.rawNum(y);
      w.sep();
      w.str(WEEKDAYS[dnw - 1]);
      w.str(month);
      w.num(y);
      w.num(y * 100L + mo);
      w.raw(month, 0, 3);
      w.rawNum(y);
      w.sep();
      w.num(dnw);
      w.num(d);
      w.num(doy);
      w.num(mo);
      w.num(doy / 7 + 1);
      w.str(season(mo, d));
      w.chr(dnw == 7 ? (byte) '1' : (byte) '0');
      w.chr(d == day.lengthOfMonth() ? (byte) '1' : (byte) '0');
      w.chr(holiday(mo, d) ? (byte) '1' : (byte) '0');
      w.chr(dnw == 1 || dnw == 7 ? (byte) '0' : (byte) '1');
      w.endRow();
    }
  }

  /** Selling season: first matching entry of the 11.2 list. */
  private static byte[] season(int mo, int d) {
    if (mo >= 11 && mo <= 12 && d <= 31) {
      return CHRISTMAS;
    }
    if (mo >= 5 && mo <= 8 && d <= 31) {
      return SUMMER;
    }
    if (mo >= 1 && mo <= 3 && d <= 31) {
      return WINTER;
    }
    if (mo == 4 && d <= 30) {
      return SPRING;
    }
    if (mo >= 9 && mo <= 10 && d <= 31) {
      return FALL;
    }
    return EMPTY;
  }

  private static boolean holiday(int mo, int d) {
    if (mo == 12 && d == 24) {
      return true;
    }
    if (mo == 1 && d == 1) {
      return true;
    }
    return d == 20 && mo != 1 && mo != 3 && mo != 6 && mo != 12;
  }

  // ----------------------------------------------------------- lineorder (section 12)

  private void lineorder(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    // Order streams start after the D_trunc states consumed by the date rows (11.3, 14).
    long orderSkip = dateTrunc + skip;
    Rng odate = Rng.at(SEED_O_ODATE, orderSkip);
    Rng ckey = Rng.at(SEED_O_CKEY, orderSkip);
    Rng prio = Rng.at(SEED_O_PRIO, orderSkip);
    Rng lcnt = Rng.at(SEED_O_LCNT, orderSkip);
    // Stream 11 (clerk) is omitted: its value never reaches the output.
    long lineSkip = (long) LINES_MAX * skip;
    Rng pkey = Rng.at(SEED_L_PKEY, lineSkip);
    Rng skey = Rng.at(SEED_L_SKEY, lineSkip);
    Rng qty = Rng.at(SEED_L_QTY, lineSkip);
    Rng dcnt = Rng.at(SEED_L_DCNT, lineSkip);
    Rng tax = Rng.at(SEED_L_TAX, lineSkip);
    Rng cdte = Rng.at(SEED_L_CDTE, lineSkip);
    Rng smode = Rng.at(SEED_L_SMODE, lineSkip);

    final long custs = customers;
    final long pkMax = partKeyMax;
    final long supps = suppliers;
    final Dists.Dist prios = dists.priorities;
    final Dists.Dist modes = dists.shipModes;
    long[] pk = new long[LINES_MAX];
    long[] sk = new long[LINES_MAX];
    long[] q = new long[LINES_MAX];
    long[] dc = new long[LINES_MAX];
    long[] tx = new long[LINES_MAX];
    int[] cd = new int[LINES_MAX];
    int[] md = new int[LINES_MAX];
    long[] ep = new long[LINES_MAX];
    long[] rp = new long[LINES_MAX];

    for (long n = first; n <= last; n++) {
      int od = (int) odate.draw(0, ORDER_DATE_MAX);
      long orderKey = ((n >>> 3) << 5) | (n & 7);
      long ck = ckey.draw(1, custs);
      long delta = 1;
      while (ck % 3 == 0) {
        ck = Math.min(ck + delta, custs);
        delta = -delta;
      }
      int pr = prios.pick(prio);
      int lines = (int) lcnt.draw(1, LINES_MAX);
      long total = 0;
      for (int j = 0; j < lines; j++) {
        long p = pkey.draw(1, pkMax);
        pk[j] = p;
        sk[j] = skey.draw(1, supps);
        long qj = qty.draw(1, 50);
        q[j] = qj;
        long dj = dcnt.draw(0, 10);
        dc[j] = dj;
        long tj = tax.draw(0, 8);
        tx[j] = tj;
        cd[j] = od + (int) cdte.draw(30, 90);
        md[j] = modes.pick(smode);
        long r = 90000 + ((p / 10) % 20001) + (p % 1000) * 100;
        rp[j] = r;
        long e = r * qj;
        ep[j] = e;
        total += ((e * (100 - dj)) / 100) * (100 + tj) / 100;
      }
      // Every order consumes exactly 7 states of each line stream (12.6).
      int jump = LINES_MAX - lines;
      if (jump > 0) {
        pkey.advance(jump);
        skey.advance(jump);
        qty.advance(jump);
        dcnt.advance(jump);
        tax.advance(jump);
        cdte.advance(jump);
        smode.advance(jump);
      }
      byte[] odKey = DATE_KEYS[od];
      byte[] prioBytes = prios.bytes[pr];
      for (int j = 0; j < lines; j++) {
        w.num(orderKey);
        w.num(j + 1);
        w.num(ck);
        w.num(pk[j]);
        w.num(sk[j]);
        w.str(odKey);
        w.str(prioBytes);
        w.chr((byte) '0');
        w.num(q[j]);
        w.num(ep[j]);
        w.num(total);
        w.num(dc[j]);
        w.num((ep[j] * (100 - dc[j])) / 100);
        w.num((6 * rp[j]) / 10);
        w.num(tx[j]);
        w.str(DATE_KEYS[cd[j]]);
        w.str(modes.bytes[md[j]]);
        w.endRow();
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  private static byte[][] buildDateKeys() {
    byte[][] keys = new byte[FULL_DATE_DAYS][];
    for (int i = 0; i < FULL_DATE_DAYS; i++) {
      LocalDate day = FIRST_DAY.plusDays(i);
      int v = day.getYear() * 10000 + day.getMonthValue() * 100 + day.getDayOfMonth();
      byte[] b = new byte[8];
      for (int j = 7; j >= 0; j--) {
        b[j] = (byte) ('0' + v % 10);
        v /= 10;
      }
      keys[i] = b;
    }
    return keys;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[][] asciiAll(String... s) {
    byte[][] b = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      b[i] = ascii(s[i]);
    }
    return b;
  }
}
