package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The engine's printers reach a command's writer through Console's stream, character for character.
 */
class ConsoleTest {
  @Test
  void charactersReachTheWriterWholeEvenWhenTheirBytesComeOneAtATime() {
    String text = "p99 ± 2 µs, 2015 §5.1, 😀 done\n";
    StringWriter w = new StringWriter();
    PrintStream s = Console.stream(new PrintWriter(w));
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      s.write(b);
    }
    s.print(text);
    s.printf("%s%n", "tail ±");
    assertEquals(text + text + "tail ±" + System.lineSeparator(), w.toString());
  }

  @Test
  void aPrintReachesABufferedWriterAtOnceAsSystemOutsWould() {
    StringWriter w = new StringWriter();
    // buffered, as Main's writer over System.out is: System.out flushes on every print, and so
    // must the stream that stands for it, or a line without its newline would wait
    PrintWriter buffered = new PrintWriter(new BufferedWriter(w, 1024));
    PrintStream s = Console.stream(buffered);
    s.print("progress 50%");
    assertEquals("progress 50%", w.toString());
  }
}
