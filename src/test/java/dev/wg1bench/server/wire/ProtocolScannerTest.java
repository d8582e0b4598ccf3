package dev.wg1bench.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The framing read from bytes as the protocol defines them, cut at every point a read could cut
 * them: the counts do not depend on where the reads fell.
 */
class ProtocolScannerTest {
  /** An SSLRequest, then a StartupMessage: what pgjdbc writes first under sslmode=prefer. */
  static byte[] sslRequest() {
    return new byte[] {0, 0, 0, 8, 0x04, (byte) 0xd2, 0x16, 0x2f};
  }

  static byte[] startupMessage() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] params = "user\0postgres\0\0".getBytes(StandardCharsets.US_ASCII);
    writeInt(b, 8 + params.length);
    writeInt(b, 196608);
    b.writeBytes(params);
    return b.toByteArray();
  }

  static void writeInt(ByteArrayOutputStream b, int v) {
    b.write(v >>> 24);
    b.write(v >>> 16);
    b.write(v >>> 8);
    b.write(v);
  }

  static void message(ByteArrayOutputStream b, char type, byte[] body) {
    b.write(type);
    writeInt(b, 4 + body.length);
    b.writeBytes(body);
  }

  static byte[] text(String s) {
    return (s + "\0").getBytes(StandardCharsets.US_ASCII);
  }

  /** The server's start-up answer (AuthenticationOk, a ParameterStatus, BackendKeyData, Ready). */
  static byte[] startupAnswer(int pid) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    message(b, 'R', new byte[] {0, 0, 0, 0});
    message(b, 'S', text("server_version\0" + "17.0"));
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    writeInt(key, pid);
    writeInt(key, 12345);
    message(b, 'K', key.toByteArray());
    message(b, 'Z', new byte[] {'I'});
    return b.toByteArray();
  }

  /** Three statements' answers: a 3-row SELECT, an INSERT of 2 rows, a BEGIN; and an error. */
  static byte[] answers() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    message(b, '1', new byte[0]);
    message(b, '2', new byte[0]);
    message(b, 'T', new byte[] {0, 0});
    for (int i = 0; i < 3; i++) {
      message(b, 'D', new byte[] {0, 1, 0, 0, 0, 1, (byte) ('0' + i)});
    }
    message(b, 'C', text("SELECT 3"));
    message(b, 'C', text("INSERT 0 2"));
    message(b, 'C', text("BEGIN"));
    message(b, 'E', text("SERROR\0C42P01\0Mno such table\0"));
    message(b, 'Z', new byte[] {'E'});
    return b.toByteArray();
  }

  static WireCounts scan(byte[] server, int cut) {
    WireCounts w = new WireCounts();
    ProtocolScanner s = new ProtocolScanner(w);
    byte[] ssl = sslRequest();
    s.sent(ssl, 0, ssl.length);
    s.received(new byte[] {'N'}, 0, 1);
    byte[] start = startupMessage();
    s.sent(start, 0, start.length);
    int at = Math.min(cut, server.length);
    s.received(server, 0, at);
    s.received(server, at, server.length - at);
    return w;
  }

  @Test
  void countsDoNotDependOnWhereTheReadsCut() {
    byte[] a = startupAnswer(4242);
    byte[] q = answers();
    byte[] server = new byte[a.length + q.length];
    System.arraycopy(a, 0, server, 0, a.length);
    System.arraycopy(q, 0, server, a.length, q.length);
    for (int cut = 0; cut <= server.length; cut++) {
      WireCounts w = scan(server, cut);
      assertTrue(w.protocolReadable(), "cut at " + cut);
      assertEquals(3, w.rows(), "cut at " + cut);
      assertEquals(3, w.statements(), "cut at " + cut);
      assertEquals(5, w.commandRows(), "cut at " + cut);
      assertEquals(1, w.errors(), "cut at " + cut);
      assertEquals(4242, w.backendPid(), "cut at " + cut);
    }
  }

  @Test
  void tlsTurnsReadingOff() {
    WireCounts w = new WireCounts();
    ProtocolScanner s = new ProtocolScanner(w);
    byte[] ssl = sslRequest();
    s.sent(ssl, 0, ssl.length);
    s.received(new byte[] {'S'}, 0, 1);
    byte[] a = answers();
    s.received(a, 0, a.length);
    assertFalse(w.protocolReadable());
    assertEquals(0, w.rows());
    assertEquals(0, w.statements());
  }

  @Test
  void aStreamThatIsNotAStartupTurnsReadingOff() {
    WireCounts w = new WireCounts();
    ProtocolScanner s = new ProtocolScanner(w);
    // a TLS ClientHello's first bytes (sslnegotiation=direct)
    byte[] hello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
    s.sent(hello, 0, hello.length);
    byte[] a = answers();
    s.received(a, 0, a.length);
    assertFalse(w.protocolReadable());
    assertEquals(0, w.statements());
  }
}
