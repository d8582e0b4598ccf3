package dev.wg1bench.server.wire;

/**
 * Reads the PostgreSQL protocol's framing as the bytes pass, into a {@link WireCounts}: each
 * backend message's type byte and length (its body skipped, except a CommandComplete's tag and a
 * BackendKeyData's process id), and on the client's side only the start-up's untyped messages,
 * which say what the server's first answers are. Work is per message, not per byte, and nothing is
 * allocated.
 *
 * <p>The start-up, as the protocol has it (protocol.html, "Start-up"): the client may first send an
 * SSLRequest or GSSENCRequest, answered by one byte: 'N' (go on in the clear: a new untyped message
 * follows), 'S' or 'G' (the rest is encrypted: nothing more can be read); then the StartupMessage,
 * after which every backend message is typed. Anything else (a direct TLS hello, a version this
 * does not know) turns reading off: round trips and bytes still count, statements do not.
 */
final class ProtocolScanner {
  private static final int SSL_REQUEST = 80877103;
  private static final int GSSENC_REQUEST = 80877104;
  private static final int CANCEL_REQUEST = 80877102;
  private static final int PROTOCOL_3_0 = 196608;
  private static final int PROTOCOL_3_2 = 196610;

  // the client's side: collecting an untyped start-up message's length and code
  private static final int FRONT_UNTYPED = 0;
  private static final int FRONT_DONE = 1;

  // the server's side
  private static final int BACK_NOTHING_YET = 0;
  private static final int BACK_ANSWER = 1;
  private static final int BACK_HEADER = 2;
  private static final int BACK_BODY = 3;
  private static final int BACK_OFF = 4;

  private final WireCounts counts;
  private int front = FRONT_UNTYPED;
  private int frontHave;
  private long frontHeader;
  private int back = BACK_NOTHING_YET;
  private int headerHave;
  private byte type;
  private int length;
  private int bodyLeft;
  private int bodyHave;
  private long tagNumber;
  private boolean tagNumberValid;
  private int pid;

  ProtocolScanner(WireCounts counts) {
    this.counts = counts;
  }

  /** The client wrote {@code len} bytes. */
  void sent(byte[] b, int off, int len) {
    if (front == FRONT_DONE || len <= 0) {
      return;
    }
    for (int i = off; i < off + len && front == FRONT_UNTYPED; i++) {
      frontHeader = (frontHeader << 8) | (b[i] & 0xff);
      if (++frontHave == 8) {
        startupMessage((int) (frontHeader >>> 32), (int) frontHeader);
        frontHave = 0;
        frontHeader = 0;
        if (front == FRONT_UNTYPED && i + 1 < off + len) {
          // a request is 8 bytes and waits for its answer: more bytes now are not the protocol
          off();
        }
      }
    }
  }

  private void startupMessage(int messageLength, int code) {
    if ((code == SSL_REQUEST || code == GSSENC_REQUEST) && messageLength == 8) {
      back = BACK_ANSWER;
    } else if (code == PROTOCOL_3_0 || code == PROTOCOL_3_2) {
      front = FRONT_DONE;
      back = BACK_HEADER;
    } else if (code == CANCEL_REQUEST) {
      front = FRONT_DONE;
    } else {
      off();
    }
  }

  private void off() {
    front = FRONT_DONE;
    back = BACK_OFF;
    counts.readable = false;
  }

  /** The server's bytes {@code b[off, off + len)} reached the client. */
  void received(byte[] b, int off, int len) {
    int end = off + len;
    int i = off;
    while (i < end) {
      switch (back) {
        case BACK_HEADER -> i = header(b, i, end);
        case BACK_BODY -> i = body(b, i, end);
        case BACK_ANSWER -> {
          if (b[i] == 'N') {
            back = BACK_NOTHING_YET;
            i++;
          } else {
            // 'S' or 'G': TLS or GSSAPI encryption from here on; 'E': an old server's refusal
            off();
            return;
          }
        }
        default -> {
          if (back != BACK_OFF) {
            off();
          }
          return;
        }
      }
    }
  }

  private int header(byte[] b, int i, int end) {
    while (i < end && headerHave < 5) {
      if (headerHave == 0) {
        type = b[i];
        length = 0;
      } else {
        length = (length << 8) | (b[i] & 0xff);
      }
      headerHave++;
      i++;
    }
    if (headerHave == 5) {
      headerHave = 0;
      if (length < 4) {
        off();
        return end;
      }
      begin();
    }
    return i;
  }

  /** A message's header is read: count it, and prepare for its body. */
  private void begin() {
    bodyLeft = length - 4;
    bodyHave = 0;
    switch (type) {
      case 'D' -> counts.rows++;
      case 'C' -> {
        tagNumber = 0;
        tagNumberValid = false;
      }
      case 'K' -> pid = 0;
      case 'E' -> counts.errors++;
      default -> {}
    }
    if (bodyLeft == 0) {
      end();
    } else {
      back = BACK_BODY;
    }
  }

  private int body(byte[] b, int i, int end) {
    int n = Math.min(bodyLeft, end - i);
    if (type == 'C') {
      tag(b, i, i + n);
    } else if (type == 'K') {
      for (int j = i; j < i + n && bodyHave + (j - i) < 4; j++) {
        pid = (pid << 8) | (b[j] & 0xff);
      }
    }
    bodyHave += n;
    bodyLeft -= n;
    if (bodyLeft == 0) {
      end();
      back = BACK_HEADER;
    }
    return i + n;
  }

  /** A CommandComplete's tag: its row count is the number after its last space. */
  private void tag(byte[] b, int from, int to) {
    for (int j = from; j < to; j++) {
      byte c = b[j];
      if (c == ' ') {
        tagNumber = 0;
        tagNumberValid = true;
      } else if (c >= '0' && c <= '9') {
        tagNumber = tagNumber * 10 + (c - '0');
      } else if (c != 0) {
        tagNumberValid = false;
      }
    }
  }

  /** A message's body is read. */
  private void end() {
    switch (type) {
      case 'C' -> {
        counts.statements++;
        if (tagNumberValid) {
          counts.commandRows += tagNumber;
        }
      }
      case 'K' -> {
        if (bodyHave >= 4) {
          counts.backendPid = pid;
          Wire.registered(counts);
        }
      }
      default -> {}
    }
    back = BACK_HEADER;
  }
}
