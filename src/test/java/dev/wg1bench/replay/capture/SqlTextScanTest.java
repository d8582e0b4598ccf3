package dev.wg1bench.replay.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Splitting, parameter numbering and pgjdbc's text read SQL with one scanner, as the server's lexer
 * does: a semicolon, a {@code $n} or a {@code ?} inside a string, a quoted name, a comment (block
 * comments nest) or a dollar-quoted string is text, not syntax.
 */
class SqlTextScanTest {
  private static final String OPAQUE =
      "E'it\\'s; $1 ?' \"a;$2?\" /* x /* $3; ? */ y */ $f$ ; $4 ? $f$ -- $5 ; ?\n";

  @Test
  void partsSplitOnlyAtSemicolonsOutsideTheOpaqueTokens() {
    assertEquals(
        List.of("SELECT " + OPAQUE.strip(), "SELECT 2"),
        SqlText.parts("SELECT " + OPAQUE + ";SELECT 2;"));
  }

  @Test
  void parametersAreCountedOnlyOutsideThem() {
    assertEquals(0, SqlText.highestParameter("SELECT " + OPAQUE));
    assertEquals(7, SqlText.highestParameter("SELECT " + OPAQUE + " + $7, $2"));
    assertEquals(0, SqlText.highestParameter("SELECT a$1 FROM t"), "a$1 is a name");
  }

  @Test
  void pgjdbcsTextKeepsThemAndNumbersTheRest() {
    JdbcStatement j = JdbcStatement.of("SELECT " + OPAQUE + " + $2 ? $1");
    assertEquals("SELECT " + OPAQUE + " + ? ?? ?", j.sql());
    assertArrayEquals(new int[] {2, 1}, j.order());
    assertEquals(
        "SELECT a$b$ + ?", JdbcStatement.of("SELECT a$b$ + $1").sql(), "no tag glued to a name");
  }
}
