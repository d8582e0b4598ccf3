package dev.wg1bench.server.delay;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What the server sent, readable {@code delay} after it arrived: a pump thread reads the socket as
 * bytes arrive and stamps each chunk with the instant it becomes readable; the driver's reads take
 * chunks in order once their instant has passed.
 *
 * <p>Why deadlines and not a sleep: a sleep per read or per statement would charge a pipelined
 * batch once per packet or statement, where the network charges it about once. Here a chunk's
 * deadline is fixed when it arrives, so a reply that arrives while the driver is still sending (a
 * JDBC batch, a multi-statement string, COPY) is due one delay after it arrived, overlapping the
 * rest of the exchange, as on a real link.
 *
 * <p>Why a pump thread: only a reader that is blocked on the socket when bytes arrive knows when
 * they arrived; the driver may be busy writing then. The pump blocks in one read, so an idle
 * connection costs nothing, and the driver's thread parks until the earliest deadline: {@link
 * LockSupport#parkNanos} until {@link #SPIN_NANOS} before it (a park overshoots by about 0.1 ms),
 * then spins to the deadline. End of stream and a failed read travel the line as chunks too, so the
 * driver sees EOF or the exception when it would have, after the bytes before it.
 */
final class DelayLine extends InputStream {
  /** Parks end this long before a deadline and spin the rest: a park overshoots by ~0.1 ms. */
  static final long SPIN_NANOS = 100_000;

  private static final AtomicLong WAITS = new AtomicLong();
  private static final AtomicLong BYTES = new AtomicLong();

  /** A piece of the stream, due at {@code due} (System.nanoTime()). */
  private record Chunk(byte[] bytes, IOException failure, long due) {
    boolean end() {
      return bytes == null;
    }
  }

  private final InputStream from;
  private final long delayNanos;
  private final DelayedSocket socket;
  private final ConcurrentLinkedQueue<Chunk> queue = new ConcurrentLinkedQueue<>();
  private volatile Thread waiting;
  private Chunk head;
  private int pos;

  DelayLine(InputStream from, long delayNanos, DelayedSocket socket) {
    this.from = from;
    this.delayNanos = delayNanos;
    this.socket = socket;
    Thread pump = new Thread(this::pump, "wg1bench-rtt-" + socket.getLocalPort());
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Times a driver's read had to wait for bytes not readable yet, over every line of this JVM: a
   * request/response exchange waits at least once, a pipelined batch about once in all.
   */
  static long waits() {
    return WAITS.get();
  }

  /** Bytes that went through every line of this JVM. */
  static long bytes() {
    return BYTES.get();
  }

  private void pump() {
    byte[] buf = new byte[64 * 1024];
    try {
      for (; ; ) {
        int n = from.read(buf);
        long due = System.nanoTime() + delayNanos;
        if (n < 0) {
          offer(new Chunk(null, null, due));
          return;
        }
        if (n > 0) {
          BYTES.addAndGet(n);
          offer(new Chunk(Arrays.copyOf(buf, n), null, due));
        }
      }
    } catch (IOException e) {
      // our own close ends the pump; anything else (a reset) reaches the driver in its turn
      if (!socket.isClosed()) {
        offer(new Chunk(null, e, System.nanoTime() + delayNanos));
      }
    }
  }

  private void offer(Chunk c) {
    queue.offer(c);
    Thread w = waiting;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    Chunk c = due();
    if (c.end()) {
      if (c.failure != null) {
        throw c.failure;
      }
      return -1;
    }
    int n = 0;
    // this chunk, then any later ones already due, without waiting again
    while (c != null && !c.end() && n < len) {
      int k = Math.min(len - n, c.bytes.length - pos);
      System.arraycopy(c.bytes, pos, b, off + n, k);
      n += k;
      pos += k;
      if (pos == c.bytes.length) {
        head = null;
        pos = 0;
        c = readyNow();
      }
    }
    return n;
  }

  @Override
  public int available() throws IOException {
    checkOpen();
    Chunk c = readyNow();
    return c == null || c.end() ? 0 : c.bytes.length - pos;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** The head chunk if it is due now, else null. */
  private Chunk readyNow() {
    if (head == null) {
      Chunk c = queue.peek();
      if (c == null || c.due - System.nanoTime() > 0) {
        return null;
      }
      head = queue.poll();
    }
    return head;
  }

  /** The head chunk once due, waiting at most the socket's timeout (0 = forever). */
  private Chunk due() throws IOException {
    checkOpen();
    Chunk ready = readyNow();
    if (ready != null) {
      return ready;
    }
    WAITS.incrementAndGet();
    int timeoutMs = socket.getSoTimeout();
    long limit = timeoutMs == 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMs * 1_000_000L;
    Chunk c = arrived(limit);
    long until = timeoutMs == 0 || c.due - limit < 0 ? c.due : limit;
    for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
      if (left > SPIN_NANOS) {
        LockSupport.parkNanos(this, left - SPIN_NANOS);
      } else {
        Thread.onSpinWait();
      }
      interrupted();
    }
    if (until != c.due) {
      throw new SocketTimeoutException("Read timed out");
    }
    checkOpen();
    head = queue.poll();
    return head;
  }

  /** The next chunk once it has arrived (due or not), parked until the pump offers it. */
  private Chunk arrived(long limit) throws IOException {
    Chunk c = queue.peek();
    while (c == null) {
      waiting = Thread.currentThread();
      try {
        c = queue.peek();
        if (c == null) {
          long left = limit - System.nanoTime();
          if (left <= 0) {
            throw new SocketTimeoutException("Read timed out");
          }
          LockSupport.parkNanos(this, left);
          interrupted();
          checkOpen();
          c = queue.peek();
        }
      } finally {
        waiting = null;
      }
    }
    return c;
  }

  private void checkOpen() throws IOException {
    if (socket.isClosed()) {
      throw new SocketException("Socket closed");
    }
  }

  /**
   * An interrupted read closes the socket and fails, as a channel's socket (the line's and the
   * benchmark's usual kind, see BlockingSocketFactory) does: a park cannot wait with the interrupt
   * pending.
   */
  private void interrupted() throws IOException {
    if (Thread.currentThread().isInterrupted()) {
      socket.close();
      throw new SocketException("Closed by interrupt");
    }
  }
}
