package dev.wg1bench.replay.log;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The text of a log as its user has it: a file or standard input ("-"), compressed or not, with or
 * without a UTF-8 byte order mark. Failures of the compressed data are told apart from failures to
 * read the file: the first are bad input, the second the machine's.
 */
final class LogInput implements AutoCloseable {
  /** The LOG argument that means standard input, as in most command-line tools. */
  static final String STDIN = "-";

  private static final byte[] BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

  /** "stdin" or the file's name, as records' file:line show it. */
  final String name;

  /** How the log is compressed, null when it is not. */
  final Compression compression;

  private final Raw raw;
  private final InputStream text;

  private LogInput(String name, Raw raw, Compression compression, InputStream text) {
    this.name = name;
    this.raw = raw;
    this.compression = compression;
    this.text = text;
  }

  /**
   * Opens {@code file}; a missing one throws {@link java.nio.file.NoSuchFileException} as {@link
   * Files#newInputStream} does, and compressed data that cannot even start is a usage error.
   */
  static LogInput open(Path file) throws IOException {
    boolean stdin = file.toString().equals(STDIN);
    Path fileName = file.getFileName();
    String name = stdin ? "stdin" : fileName == null ? file.toString() : fileName.toString();
    // stdin is not closed with the log: "-" given twice reads it twice, the second time empty
    InputStream in = stdin ? new KeepOpen(System.in) : Files.newInputStream(file);
    Raw raw = new Raw(new BufferedInputStream(in, 1 << 16));
    try {
      Compression c = Compression.of(head(raw, Compression.MAGIC_LENGTH));
      InputStream text = raw;
      try {
        if (c != null) {
          text = new BufferedInputStream(new Guard(c.open(raw, name)), 1 << 16);
        }
        skipBom(text);
      } catch (IOException | RuntimeException e) {
        if (raw.failure != null || c == null || e instanceof RunFailure) {
          throw e;
        }
        throw corrupt(name, c, "before its first line", e);
      }
      return new LogInput(name, raw, c, text);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** The decompressed, BOM-less bytes of the log. */
  InputStream text() {
    return text;
  }

  /**
   * Whether a failure while reading the text is the compressed data's fault (corrupt or cut off)
   * rather than a failure to read the file.
   */
  boolean corrupt() {
    return compression != null && raw.failure == null;
  }

  /** The usage error for compressed data found corrupt after {@code line} lines. */
  UsageException corruptAfter(IOException e, int line) {
    return corrupt(name, compression, "after line " + line, e);
  }

  private static UsageException corrupt(String name, Compression c, String where, Exception e) {
    return new UsageException(
        name
            + ": "
            + c.label
            + " data corrupt or cut off "
            + where
            + " ("
            + cause(e)
            + "); the log cannot be read past it");
  }

  private static String cause(Throwable e) {
    String m =
        e.getMessage() != null
            ? e.getMessage()
            : e instanceof EOFException ? "unexpected end of data" : e.toString();
    return LogReader.abbreviate(m, 120);
  }

  /** The first {@code n} bytes, left unread; zeros past the end, which match no magic. */
  private static byte[] head(InputStream in, int n) throws IOException {
    in.mark(n);
    byte[] b = new byte[n];
    in.readNBytes(b, 0, n);
    in.reset();
    return b;
  }

  private static void skipBom(InputStream in) throws IOException {
    byte[] b = head(in, BOM.length);
    if (Arrays.equals(b, BOM)) {
      in.skipNBytes(BOM.length);
    }
  }

  @Override
  public void close() throws IOException {
    text.close();
  }

  /** The file's own bytes, remembering a failure to read them. */
  private static final class Raw extends FilterInputStream {
    IOException failure;

    Raw(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }
  }

  /**
   * A decompressor's stream whose runtime exceptions on malformed data (some decompressors index
   * past their tables) are I/O failures, so they end as one message and not a stack trace.
   */
  private static final class Guard extends FilterInputStream {
    Guard(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (RuntimeException e) {
        throw new IOException(e.toString(), e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (RuntimeException e) {
        throw new IOException(e.toString(), e);
      }
    }
  }

  /** Standard input, left open when the log is closed. */
  private static final class KeepOpen extends FilterInputStream {
    KeepOpen(InputStream in) {
      super(in);
    }

    @Override
    public void close() {}
  }
}
