package dev.wg1bench.server;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * PgBouncer's admin console ({@code SHOW VERSION}, {@code SHOW CONFIG}) over the protocol's simple
 * query flow. Not through pgjdbc: the console reports PgBouncer's own version as the server's, so
 * pgjdbc takes it for a pre-9.0 server and sends a SET the console refuses. The console is reached
 * with trust authentication (an hba rule for the {@code pgbouncer} database on 127.0.0.1 only).
 */
final class PgBouncerConsole {
  private PgBouncerConsole() {}

  /** The rows of one console command, each column as text. */
  static List<List<String>> query(int port, String user, String sql) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] params =
          ("user\0" + user + "\0database\0pgbouncer\0\0").getBytes(StandardCharsets.UTF_8);
      out.writeInt(8 + params.length);
      out.writeInt(196608); // protocol 3.0
      out.write(params);
      out.flush();
      readUntilReady(in, null);
      byte[] q = (sql + "\0").getBytes(StandardCharsets.UTF_8);
      out.writeByte('Q');
      out.writeInt(4 + q.length);
      out.write(q);
      out.flush();
      List<List<String>> rows = new ArrayList<>();
      readUntilReady(in, rows);
      out.writeByte('X');
      out.writeInt(4);
      out.flush();
      // until PgBouncer closes its end: it has processed the Terminate, so this console session
      // no longer counts against max_client_conn when the clients connect
      while (in.read() >= 0) {
        // nothing else comes
      }
      return rows;
    }
  }

  private static void readUntilReady(DataInputStream in, List<List<String>> rows)
      throws IOException {
    while (true) {
      int type = in.readUnsignedByte();
      byte[] body = new byte[in.readInt() - 4];
      in.readFully(body);
      switch (type) {
        case 'R' -> {
          int code = ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8);
          code |= body[3] & 0xff;
          if (code != 0) {
            throw new IOException(
                "the admin console asked for a password (auth code " + code + ")");
          }
        }
        case 'E' -> throw new IOException(errorMessage(body));
        case 'D' -> {
          if (rows != null) {
            rows.add(dataRow(body));
          }
        }
        case 'Z' -> {
          return;
        }
        default -> {
          // parameter status, backend key, row description, command complete, notices
        }
      }
    }
  }

  private static List<String> dataRow(byte[] b) {
    int n = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    int at = 2;
    List<String> row = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int len =
          ((b[at] & 0xff) << 24)
              | ((b[at + 1] & 0xff) << 16)
              | ((b[at + 2] & 0xff) << 8)
              | (b[at + 3] & 0xff);
      at += 4;
      if (len < 0) {
        row.add(null);
      } else {
        row.add(new String(b, at, len, StandardCharsets.UTF_8));
        at += len;
      }
    }
    return row;
  }

  private static String errorMessage(byte[] b) {
    int at = 0;
    while (at < b.length && b[at] != 0) {
      char field = (char) b[at++];
      int end = at;
      while (end < b.length && b[end] != 0) {
        end++;
      }
      if (field == 'M') {
        return new String(b, at, end - at, StandardCharsets.UTF_8);
      }
      at = end + 1;
    }
    return "error from the admin console";
  }
}
