package dev.wg1bench.server.wire;

import dev.wg1bench.server.ForwardingSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * Another factory's socket whose streams count into a {@link WireCounts}: the driver's reads and
 * writes pass through unchanged (the same calls, the same buffers), so the socket under it (a delay
 * line, a user's own) behaves as it would alone.
 */
final class CountingSocket extends ForwardingSocket {
  private final WireCounts counts = new WireCounts();
  private final ProtocolScanner scanner = new ProtocolScanner(counts);
  private InputStream in;
  private OutputStream out;

  CountingSocket(Socket inner, String owner) throws IOException {
    super(inner);
    counts.owner = owner;
  }

  WireCounts counts() {
    return counts;
  }

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (in == null) {
      in = new CountingInput(inner().getInputStream(), counts, scanner);
    }
    return in;
  }

  @Override
  public synchronized OutputStream getOutputStream() throws IOException {
    if (out == null) {
      out = new CountingOutput(inner().getOutputStream(), counts, scanner);
    }
    return out;
  }

  @Override
  public void connect(SocketAddress endpoint) throws IOException {
    connect(endpoint, 0);
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    super.connect(endpoint, timeout);
    Wire.connected(counts, getLocalPort());
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      Wire.closed(counts);
    }
  }

  @Override
  public String toString() {
    return "counted " + inner();
  }

  /** The server's bytes: counted, a round trip where the client wrote since its last read. */
  private static final class CountingInput extends InputStream {
    private final InputStream from;
    private final WireCounts counts;
    private final ProtocolScanner scanner;
    private byte[] one;

    CountingInput(InputStream from, WireCounts counts, ProtocolScanner scanner) {
      this.from = from;
      this.counts = counts;
      this.scanner = scanner;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = from.read(b, off, len);
      if (n > 0) {
        counts.bytesReceived += n;
        if (counts.wroteSinceRead) {
          counts.wroteSinceRead = false;
          counts.roundTrips++;
        }
        scanner.received(b, off, n);
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      if (one == null) {
        one = new byte[1];
      }
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    /** Skipped bytes are read, so the scanner keeps its place in the stream. */
    @Override
    public long skip(long n) throws IOException {
      if (n <= 0) {
        return 0;
      }
      byte[] scratch = new byte[(int) Math.min(n, 8192)];
      long left = n;
      while (left > 0) {
        int r = read(scratch, 0, (int) Math.min(left, scratch.length));
        if (r < 0) {
          break;
        }
        left -= r;
      }
      return n - left;
    }

    @Override
    public int available() throws IOException {
      return from.available();
    }

    @Override
    public void close() throws IOException {
      from.close();
    }
  }

  /** The client's bytes: counted, and marking that its next read ends a round trip. */
  private static final class CountingOutput extends OutputStream {
    private final OutputStream to;
    private final WireCounts counts;
    private final ProtocolScanner scanner;

    CountingOutput(OutputStream to, WireCounts counts, ProtocolScanner scanner) {
      this.to = to;
      this.counts = counts;
      this.scanner = scanner;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      to.write(b, off, len);
      if (len > 0) {
        counts.bytesSent += len;
        counts.wroteSinceRead = true;
        scanner.sent(b, off, len);
      }
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
      to.flush();
    }

    @Override
    public void close() throws IOException {
      to.close();
    }
  }
}
