package dev.wg1bench.load.ssb;

import static dev.wg1bench.load.ssb.SsbTestSupport.chunk;
import static dev.wg1bench.load.ssb.SsbTestSupport.lineArray;
import static dev.wg1bench.load.ssb.SsbTestSupport.lines;
import static dev.wg1bench.load.ssb.SsbTestSupport.sha256;
import static dev.wg1bench.load.ssb.SsbTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Checks the generator against CHECKSUMS.md and GENERATOR.md (sections 5.3, 14, 15a). */
class SsbGeneratorTest {
  /** dbgen SF 0.01 sums from CHECKSUMS.md (date = dbgen's truncated 25-row table). */
  private static final Map<SsbTable, String> SF001 = new EnumMap<>(SsbTable.class);

  /** The complete 2557-row date table (= dbgen's SF 1 date.tbl), GENERATOR.md section 14. */
  private static final String FULL_DATE_SHA =
      "a389677a574fc53906f17b3bfb0be93dd4ebe9c12295d45c01eb1c58a1152aa7";

  static {
    SF001.put(
        SsbTable.CUSTOMER, "c82a776ba66bedf340adac8289d91b013285534df80edf456a31bec70aa029ea");
    SF001.put(SsbTable.DATE, "20342ada3f2185b008ea9961cc4ce7bd4379844a1216388e720da52d4a3143c2");
    SF001.put(
        SsbTable.LINEORDER, "36bdb8fc2c6edfd9b4b54114d57921b0099dc5ffba55f4b29c7e409c55063e4b");
    SF001.put(SsbTable.PART, "5aec4de726245b1075d6c557ec2bd13693339267c0527e2ce86e8a1255e7eff9");
    SF001.put(
        SsbTable.SUPPLIER, "ac6c8f1f9538495612438706bd261ca50f446407ab10efba40e6616c474263b4");
  }

  private static SsbGenerator g001;
  private static Map<SsbTable, byte[]> tables001;

  @BeforeAll
  static void generateSf001() {
    g001 = new SsbGenerator(0.01, true);
    tables001 = new EnumMap<>(SsbTable.class);
    for (SsbTable t : SsbTable.values()) {
      tables001.put(t, table(g001, t));
    }
  }

  @ParameterizedTest
  @EnumSource(SsbTable.class)
  void sf001MatchesDbgenChecksums(SsbTable t) {
    assertEquals(SF001.get(t), sha256(tables001.get(t)), t.fileName());
  }

  @Test
  void sf001DefaultHasFullDateTableAndSameOtherTables() {
    SsbGenerator g = new SsbGenerator(0.01, false);
    byte[] date = table(g, SsbTable.DATE);
    assertEquals(2557, lines(date));
    assertEquals(2557, g.rowCount(SsbTable.DATE));
    String[] l = lineArray(date);
    assertEquals(
        "19920101|January 1, 1992|Thursday|January|1992|199201|Jan1992|5|1|1|1|1|Winter"
            + "|0|0|1|1|",
        l[0]);
    assertEquals(
        "19981231|December 31, 1998|Friday|December|1998|199812|Dec1998|6|31|365|12|53"
            + "|Christmas|0|1|0|1|",
        l[2556]);
    assertEquals(FULL_DATE_SHA, sha256(date));
    for (SsbTable t :
        List.of(SsbTable.PART, SsbTable.SUPPLIER, SsbTable.CUSTOMER, SsbTable.LINEORDER)) {
      assertEquals(SF001.get(t), sha256(table(g, t)), t.fileName());
    }
  }

  @Test
  void rowCountsAtSf01() {
    SsbGenerator g = new SsbGenerator(0.1, true);
    Map<SsbTable, Long> expected = new EnumMap<>(SsbTable.class);
    expected.put(SsbTable.PART, 20000L);
    expected.put(SsbTable.SUPPLIER, 200L);
    expected.put(SsbTable.CUSTOMER, 3000L);
    expected.put(SsbTable.DATE, 255L);
    expected.put(SsbTable.LINEORDER, 600597L);
    for (SsbTable t : SsbTable.values()) {
      assertEquals(expected.get(t), g.rowCount(t), "rowCount " + t);
      assertEquals(expected.get(t), lines(table(g, t)), "lines of " + t.fileName());
    }
    assertEquals(150000L, g.orderCount());
    assertEquals(2557L, new SsbGenerator(0.1, false).rowCount(SsbTable.DATE));
  }

  @Test
  void rowCountsAtOtherScaleFactors() {
    // GENERATOR.md 5.3 / CHECKSUMS.md; lineorder counts come from the line-count stream only.
    assertCounts(new SsbGenerator(0.0001, true), 20, 1, 3, 1, 585);
    assertCounts(new SsbGenerator(1, true), 200000, 2000, 30000, 2557, 6001173);
    assertCounts(new SsbGenerator(1.5, true), 200000, 2000, 30000, 2557, 6001173);
    assertCounts(new SsbGenerator(2, true), 400000, 4000, 60000, 2557, 11998049);
    assertCounts(new SsbGenerator(8, false), 800000, 16000, 240000, 2557, 47989130);
  }

  private static void assertCounts(SsbGenerator g, long p, long s, long c, long d, long lo) {
    assertEquals(p, g.rowCount(SsbTable.PART));
    assertEquals(s, g.rowCount(SsbTable.SUPPLIER));
    assertEquals(c, g.rowCount(SsbTable.CUSTOMER));
    assertEquals(d, g.rowCount(SsbTable.DATE));
    assertEquals(lo, g.rowCount(SsbTable.LINEORDER));
  }

  @Test
  void sf1FirstRowsMatchSpecificationExamples() {
    SsbGenerator g = new SsbGenerator(1, false);
    assertEquals(
        "1|1|18238|155190|828|19960130|2-HIGH|0|17|2116823|10523209|4|2032150|74711|2"
            + "|19960311|TRUCK|\n"
            + "1|2|18238|67310|163|19960130|2-HIGH|0|36|4598316|10523209|9|4184467|76638|6"
            + "|19960327|MAIL|\n"
            + "1|3|18238|63700|71|19960130|2-HIGH|0|8|1330960|10523209|10|1197864|99822|2"
            + "|19960402|REG AIR|\n"
            + "1|4|18238|2132|943|19960130|2-HIGH|0|28|2895564|10523209|9|2634963|62047|6"
            + "|19960427|AIR|\n",
        text(chunk(g, new Chunk(SsbTable.LINEORDER, 1, 1))));
    assertEquals(
        "1|lace spring|MFGR#1|MFGR#11|MFGR#1121|goldenrod|PROMO BURNISHED COPPER|7"
            + "|JUMBO PKG|\n",
        text(chunk(g, new Chunk(SsbTable.PART, 1, 1))));
    assertEquals(
        "1|Supplier#000000001|sdrGnXCDRcfriBvY0KL,i|PERU     9|PERU|AMERICA"
            + "|27-989-741-2988|\n",
        text(chunk(g, new Chunk(SsbTable.SUPPLIER, 1, 1))));
    assertEquals(
        "1|Customer#000000001|j5JsirBM9P|MOROCCO  6|MOROCCO|AFRICA|25-214-662-5265"
            + "|BUILDING|\n",
        text(chunk(g, new Chunk(SsbTable.CUSTOMER, 1, 1))));
    // Sparse order keys (12.4): order 8 has key 32.
    assertTrue(text(chunk(g, new Chunk(SsbTable.LINEORDER, 8, 8))).startsWith("32|1|"));
  }

  @Test
  void rngTestVectors() {
    Rng r = new Rng(1);
    assertEquals(1, r.draw(1, 5));
    assertEquals(16807, r.state);
    r.draw(0, 0);
    assertEquals(282475249, r.state);
    r.draw(0, 0);
    assertEquals(1622650073, r.state);
    assertEquals(Rng.at(1, 3).state, r.state);
    // The 255 exceptional states of U(0, 2^31 - 1), section 2.3.
    assertEquals(2147483391L, stateBefore(2147483391L).draw(0, 2147483647L));
    assertEquals(2147483393L, stateBefore(2147483392L).draw(0, 2147483647L));
    // Order streams after 2557 date rows (15a).
    assertEquals(1021497857L, Rng.at(1066728069L, 2557).state);
    assertEquals(1842311218L, Rng.at(851767375L, 2557).state);
  }

  /** A stream whose next state is the given one (state * A^-1 mod M). */
  private static Rng stateBefore(long next) {
    long inv =
        java.math.BigInteger.valueOf(Rng.A)
            .modInverse(java.math.BigInteger.valueOf(Rng.M))
            .longValueExact();
    return new Rng(next * inv % Rng.M);
  }

  @ParameterizedTest
  @EnumSource(SsbTable.class)
  void chunksConcatenateToWholeTableAtSf001(SsbTable t) throws IOException {
    assertChunksEqualWhole(g001, t, tables001.get(t));
  }

  @Test
  void lineorderChunksConcatenateToWholeTableAtSf01() throws IOException {
    SsbGenerator g = new SsbGenerator(0.1, false);
    assertChunksEqualWhole(g, SsbTable.LINEORDER, table(g, SsbTable.LINEORDER));
  }

  @Test
  void sf1DimensionChunksConcatenateToWholeTable() throws IOException {
    // Larger skip-ahead distances, and customer streams continuing after 2000 suppliers.
    SsbGenerator g = new SsbGenerator(1, false);
    for (SsbTable t : List.of(SsbTable.PART, SsbTable.SUPPLIER, SsbTable.CUSTOMER)) {
      assertChunksEqualWhole(g, t, table(g, t));
    }
  }

  @Test
  void fullDateChunksConcatenateToWholeTable() throws IOException {
    SsbGenerator g = new SsbGenerator(0.01, false);
    assertChunksEqualWhole(g, SsbTable.DATE, table(g, SsbTable.DATE));
  }

  private static void assertChunksEqualWhole(SsbGenerator g, SsbTable t, byte[] whole)
      throws IOException {
    for (int n : new int[] {1, 2, 3, 7}) {
      List<Chunk> chunks = g.chunks(t, n);
      assertEquals(Math.min(n, g.unitCount(t)), chunks.size());
      long expectFirst = 1;
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (Chunk c : chunks) {
        assertEquals(t, c.table());
        assertEquals(expectFirst, c.firstRow());
        expectFirst = c.lastRow() + 1;
        g.write(c, out);
      }
      assertEquals(g.unitCount(t) + 1, expectFirst);
      assertArrayEquals(whole, out.toByteArray(), t + " in " + n + " chunks");
    }
  }

  @Test
  void moreChunksThanRowsGivesOneChunkPerRow() {
    SsbGenerator g = new SsbGenerator(0.0001, true);
    assertEquals(1, g.chunks(SsbTable.SUPPLIER, 7).size());
    assertEquals(3, g.chunks(SsbTable.CUSTOMER, 7).size());
    assertThrows(IllegalArgumentException.class, () -> g.chunks(SsbTable.PART, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> g.write(new Chunk(SsbTable.SUPPLIER, 1, 2), new ByteArrayOutputStream()));
  }

  @ParameterizedTest
  @EnumSource(SsbTable.class)
  void copyTextIsTblWithoutTrailingSeparator(SsbTable t) throws IOException {
    byte[] tbl = tables001.get(t);
    for (Chunk c : g001.chunks(t, 3)) {
      ByteArrayOutputStream copy = new ByteArrayOutputStream();
      g001.writeCopyText(c, copy);
      String[] expected = lineArray(chunk(g001, c));
      String[] actual = lineArray(copy.toByteArray());
      assertEquals(expected.length, actual.length);
      for (int i = 0; i < expected.length - 1; i++) {
        assertTrue(expected[i].endsWith("|"), expected[i]);
        assertEquals(expected[i].substring(0, expected[i].length() - 1), actual[i]);
        assertTrue(!actual[i].endsWith("|"), actual[i]);
      }
      assertEquals("", actual[actual.length - 1]);
    }
    assertTrue(tbl.length > 0);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, -0.0, -1.0, Double.NaN})
  void badScaleFactorRejected(double sf) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SsbGenerator(sf, false));
    assertEquals("scale factor must be > 0, got " + sf, e.getMessage());
  }

  @Test
  void infiniteScaleFactorRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> new SsbGenerator(Double.POSITIVE_INFINITY, false));
  }

  @Test
  void tableNames() {
    assertEquals("part.tbl", SsbTable.PART.fileName());
    assertEquals("lineorder", SsbTable.LINEORDER.tableName());
    assertEquals("date.tbl", SsbTable.DATE.fileName());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void filesMatchDbgenChecksums(int threads, @TempDir Path dir) throws IOException {
    Map<SsbTable, Path> files = SsbFiles.generate(0.01, dir, threads, true);
    assertEquals(5, files.size());
    for (SsbTable t : SsbTable.values()) {
      assertEquals(dir.resolve(t.fileName()), files.get(t));
      assertEquals(SF001.get(t), sha256(Files.readAllBytes(files.get(t))), t.fileName());
    }
    Map<SsbTable, Path> full = SsbFiles.generate(0.01, dir, threads, false);
    assertEquals(FULL_DATE_SHA, sha256(Files.readAllBytes(full.get(SsbTable.DATE))));
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.US_ASCII);
  }
}
