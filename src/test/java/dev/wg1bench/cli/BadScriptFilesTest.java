package dev.wg1bench.cli;

import static dev.wg1bench.cli.CliErrorsTest.assertOneLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts a careless user or a fuzzer hands the CLI: each is refused before anything connects, in
 * one line naming the file and the line, exit 2 (issue 56: these were a StackOverflowError of 1,025
 * lines, 08P01 on every op, and "cannot read it (Input length = 1)").
 */
class BadScriptFilesTest {
  @TempDir Path tmp;

  private Path write(String name, byte[] bytes) throws Exception {
    Path p = tmp.resolve(name);
    Files.write(p, bytes);
    return p;
  }

  private Path write(String name, String text) throws Exception {
    return write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void deeplyNestedExpressionsAreRefusedWithTheLimitNotAStackOverflow() throws Exception {
    Path parens =
        write(
            "parens.sql", "SELECT 1;\n\\set a " + "(".repeat(5000) + "1" + ")".repeat(5000) + "\n");
    assertOneLine(
        Cli.run("--script", parens.toString()),
        2,
        "parens.sql:2: expression nested too deeply at column ",
        "the limit is 256 levels");
    Path minus = write("minus.sql", "\\set a " + "-".repeat(20_000) + "1\nSELECT :a;\n");
    assertOneLine(Cli.run("--script", minus.toString()), 2, "minus.sql:1: expression nested");
    Path sum = write("sum.sql", "\\set a 1" + "+(1".repeat(3000) + ")".repeat(3000) + "\n");
    assertOneLine(Cli.run("--script", sum.toString()), 2, "sum.sql:1: expression nested");
    Path inIf = write("if.sql", "\\if " + "not ".repeat(5000) + "true\nSELECT 1;\n\\endif\n");
    assertOneLine(Cli.run("--script", inIf.toString()), 2, "if.sql:1: expression nested");
  }

  @Test
  void aNulCharacterIsRefusedNamingItsLine() throws Exception {
    Path nul = write("nul.sql", "SELECT 1;\nSELECT 2\0 AS x;\nSELECT 3;\n");
    assertOneLine(
        Cli.run("--script", nul.toString()),
        2,
        "nul.sql:2: a NUL character (byte 0x00) at column 9");
  }

  @Test
  void bytesThatAreNotUtf8AreRefusedNamingTheLineAndOffset() throws Exception {
    Path latin1 =
        write("latin1.sql", "SELECT 1;\n-- caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertOneLine(
        Cli.run("--script", latin1.toString()),
        2,
        "latin1.sql: line 2 is not UTF-8 text (byte 0xe9 at byte offset 16 of the file)");
    // a binary file: a JVM class file's magic number is not UTF-8
    Path binary =
        write("binary.sql", new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe});
    assertOneLine(
        Cli.run("--script", binary.toString()),
        2,
        "binary.sql: line 1 is not UTF-8 text (byte 0xca at byte offset 0 of the file)");
    // a sequence cut short at the end of the file
    Path cut =
        write("cut.sql", new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', '1', ';', (byte) 0xc3});
    assertOneLine(Cli.run("--script", cut.toString()), 2, "cut.sql: line 1 is not UTF-8 text");
  }
}
