package dev.wg1bench.load.ssb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Row generators of the part, supplier, customer and lineorder tables (sections 8 to 10 and 12).
 * Each method positions its streams at the chunk's first row with the closed form of section 2.7,
 * so any row range can be written on its own. Immutable: the streams are local to each call.
 */
final class SsbRows {
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
  static final long SEED_O_LCNT = 1434868289L;
  private static final long SEED_P_CAT = 637858759L;
  private static final long SEED_P_CITY = 1495190827L;

  // Boundaries (states reserved per row) of the streams whose usage varies, section 2.6.
  private static final int ADDR_BOUNDARY = 9;
  private static final int PHONE_BOUNDARY = 3;
  private static final int COLORS_BOUNDARY = 92;
  static final int LINES_MAX = 7;

  /** Order dates are U(0, 2405) indexes into the 2557-day list (12.2 step 1). */
  private static final long ORDER_DATE_MAX = 2405L;

  private static final byte[] ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MFGR = ascii("MFGR#");
  private static final byte[] SUPPLIER_PREFIX = ascii("Supplier#");
  private static final byte[] CUSTOMER_PREFIX = ascii("Customer#");

  private final long partKeyMax;
  private final long suppliers;
  private final long customers;

  /** D_trunc of section 14: the order streams always start after this many states. */
  private final long dateTrunc;

  private final Dists dists;
  private final NationInfo[] nationInfo;

  SsbRows(Dists dists, long partKeyMax, long suppliers, long customers, long dateTrunc) {
    this.dists = dists;
    this.partKeyMax = partKeyMax;
    this.suppliers = suppliers;
    this.customers = customers;
    this.dateTrunc = dateTrunc;
    this.nationInfo = buildNations(dists);
  }

  // ---------------------------------------------------------------- part (section 8)

  void part(long first, long last, RowWriter w) throws IOException {
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

  void supplier(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    Rng addr = Rng.at(SEED_S_ADDR, ADDR_BOUNDARY * skip);
    Rng ntrg = Rng.at(SEED_S_NTRG, skip);
    Rng city = Rng.at(SEED_P_CITY, skip);
    // Suppliers use the customer phone stream 28 (section 6).
    Rng phone = Rng.at(SEED_C_PHNE, PHONE_BOUNDARY * skip);
    for (long k = first; k <= last; k++) {
      party(k, SUPPLIER_PREFIX, addr, ntrg, city, phone, w);
      w.endRow();
    }
  }

  /**
   * The columns suppliers and customers share: key, name (prefix and zero-padded key), address,
   * then city, nation, region and phone.
   */
  private void party(long k, byte[] prefix, Rng addr, Rng ntrg, Rng city, Rng phone, RowWriter w)
      throws IOException {
    w.num(k);
    w.raw(prefix);
    w.rawPadded(k, 9);
    w.sep();
    int used = address(addr, w);
    addr.advance(ADDR_BOUNDARY - used);
    NationInfo n = nationInfo[(int) ntrg.draw(0, nationInfo.length - 1)];
    cityNationRegionPhone(n, city, phone, w);
  }

  void customer(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    Rng addr = Rng.at(SEED_C_ADDR, ADDR_BOUNDARY * skip);
    Rng ntrg = Rng.at(SEED_C_NTRG, skip);
    Rng mseg = Rng.at(SEED_C_MSEG, skip);
    // Streams 49 and 28 continue after the states the supplier rows consumed (section 6).
    Rng city = Rng.at(SEED_P_CITY, suppliers + skip);
    Rng phone = Rng.at(SEED_C_PHNE, PHONE_BOUNDARY * (suppliers + skip));
    for (long k = first; k <= last; k++) {
      party(k, CUSTOMER_PREFIX, addr, ntrg, city, phone, w);
      w.str(dists.segments.bytes[dists.segments.pick(mseg)]);
      w.endRow();
    }
  }

  // ----------------------------------------------------------- lineorder (section 12)

  void lineorder(long first, long last, RowWriter w) throws IOException {
    long skip = first - 1;
    // Order streams start after the D_trunc states consumed by the date rows (11.3, 14).
    long orderSkip = dateTrunc + skip;
    Rng odate = Rng.at(SEED_O_ODATE, orderSkip);
    Rng ckey = Rng.at(SEED_O_CKEY, orderSkip);
    Rng prio = Rng.at(SEED_O_PRIO, orderSkip);
    Rng lcnt = Rng.at(SEED_O_LCNT, orderSkip);
    // Stream 11 (clerk) is omitted: its value never reaches the output.
    OrderLines orderLines = new OrderLines(skip, partKeyMax, suppliers, dists.shipModes);

    final long custs = customers;
    final Dists.Dist prios = dists.priorities;
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
      long total = orderLines.draw(lines, od);
      orderLines.write(orderKey, ck, SsbDates.DATE_KEYS[od], prios.bytes[pr], lines, total, w);
    }
  }

  /**
   * The lines of one order: the seven line streams, and each line's values held until all are
   * drawn, because every line's row carries the order's total price (12.4). The buffers are reused
   * from order to order: nothing is allocated per row.
   */
  private static final class OrderLines {
    private final Rng pkey;
    private final Rng skey;
    private final Rng qty;
    private final Rng dcnt;
    private final Rng tax;
    private final Rng cdte;
    private final Rng smode;
    private final long pkMax;
    private final long supps;
    private final Dists.Dist modes;
    private final long[] pk = new long[LINES_MAX];
    private final long[] sk = new long[LINES_MAX];
    private final long[] q = new long[LINES_MAX];
    private final long[] dc = new long[LINES_MAX];
    private final long[] tx = new long[LINES_MAX];
    private final int[] cd = new int[LINES_MAX];
    private final int[] md = new int[LINES_MAX];
    private final long[] ep = new long[LINES_MAX];
    private final long[] rp = new long[LINES_MAX];

    /** The line streams positioned at the chunk's first order, {@code skip} orders in. */
    OrderLines(long skip, long pkMax, long supps, Dists.Dist modes) {
      long lineSkip = (long) LINES_MAX * skip;
      this.pkey = Rng.at(SEED_L_PKEY, lineSkip);
      this.skey = Rng.at(SEED_L_SKEY, lineSkip);
      this.qty = Rng.at(SEED_L_QTY, lineSkip);
      this.dcnt = Rng.at(SEED_L_DCNT, lineSkip);
      this.tax = Rng.at(SEED_L_TAX, lineSkip);
      this.cdte = Rng.at(SEED_L_CDTE, lineSkip);
      this.smode = Rng.at(SEED_L_SMODE, lineSkip);
      this.pkMax = pkMax;
      this.supps = supps;
      this.modes = modes;
    }

    /** Draws the order's lines (ordered on day {@code od}); returns the order's total price. */
    long draw(int lines, int od) {
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
      return total;
    }

    /** One row per line drawn, in the lineorder table's column order. */
    void write(
        long orderKey, long ck, byte[] odKey, byte[] prioBytes, int lines, long total, RowWriter w)
        throws IOException {
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
        w.str(SsbDates.DATE_KEYS[cd[j]]);
        w.str(modes.bytes[md[j]]);
        w.endRow();
      }
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
