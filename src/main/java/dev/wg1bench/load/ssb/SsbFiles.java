package dev.wg1bench.load.ssb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes the five dbgen {@code .tbl} files (GENERATOR.md sections 0 and 7): the backend of {@code
 * wg1bench ssb generate --scale SF --output DIR}.
 *
 * <p>With more than one thread every table is cut into blocks that worker threads generate into
 * memory (possible because chunks are independent, section 2.7) while the calling thread writes the
 * finished blocks in order, keeping a bounded number in flight.
 */
public final class SsbFiles {
  /** Orders per lineorder block: about 4 MB of text. */
  private static final long LINEORDER_BLOCK = 10_000;

  /** Rows per block of the other tables: about 4 MB of text. */
  private static final long ROW_BLOCK = 32_768;

  private static final int FILE_BUFFER = 1 << 18;

  private SsbFiles() {}

  /**
   * Generates all five tables into dir (created if missing), overwriting existing files.
   *
   * @param sf scale factor, &gt; 0
   * @param dir output directory
   * @param threads worker threads, &gt;= 1 (1 = sequential streaming, no in-memory blocks)
   * @param dbgenTruncatedDate reproduce dbgen's truncated date table at fractional SF
   * @return the written file of each table, in generation order
   */
  public static Map<SsbTable, Path> generate(
      double sf, Path dir, int threads, boolean dbgenTruncatedDate) throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    SsbGenerator g = new SsbGenerator(sf, dbgenTruncatedDate);
    Files.createDirectories(dir);
    Map<SsbTable, Path> files = new EnumMap<>(SsbTable.class);
    for (SsbTable t : SsbTable.values()) {
      files.put(t, dir.resolve(t.fileName()));
    }
    if (threads == 1) {
      for (SsbTable t : SsbTable.values()) {
        try (OutputStream out = Files.newOutputStream(files.get(t))) {
          g.writeAll(t, out);
        }
      }
    } else {
      generateParallel(g, files, threads);
    }
    return Collections.unmodifiableMap(files);
  }

  /** Exposes the buffer so finished blocks are written without a copy. */
  private static final class Block extends ByteArrayOutputStream {
    Block(int size) {
      super(size);
    }
  }

  private static void generateParallel(SsbGenerator g, Map<SsbTable, Path> files, int threads)
      throws IOException {
    List<Chunk> blocks = new ArrayList<>();
    for (SsbTable t : SsbTable.values()) {
      long per = t == SsbTable.LINEORDER ? LINEORDER_BLOCK : ROW_BLOCK;
      long units = g.unitCount(t);
      for (long first = 1; first <= units; first += per) {
        blocks.add(new Chunk(t, first, Math.min(units, first + per - 1)));
      }
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread th = new Thread(r, "ssb-gen");
              th.setDaemon(true);
              return th;
            });
    // Bounded look-ahead keeps memory at about (window x 4 MB).
    int window = threads * 3;
    ArrayDeque<Future<Block>> inFlight = new ArrayDeque<>();
    int next = 0;
    OutputStream out = null;
    SsbTable current = null;
    try {
      for (Chunk c : blocks) {
        while (next < blocks.size() && inFlight.size() < window) {
          Chunk b = blocks.get(next++);
          inFlight.add(pool.submit(() -> render(g, b)));
        }
        Block data = await(inFlight.poll());
        if (c.table() != current) {
          if (out != null) {
            out.close();
          }
          current = c.table();
          out = Files.newOutputStream(files.get(current));
        }
        data.writeTo(out);
      }
      if (out != null) {
        out.close();
        out = null;
      }
      // A table with no blocks cannot happen (every count is >= 1), but keep files complete.
    } finally {
      for (Future<Block> f : inFlight) {
        f.cancel(true);
      }
      pool.shutdownNow();
      if (out != null) {
        out.close();
      }
    }
  }

  private static Block render(SsbGenerator g, Chunk c) throws IOException {
    int perUnit = c.table() == SsbTable.LINEORDER ? 512 : 160;
    Block b = new Block((int) Math.min(Integer.MAX_VALUE - 8, c.rows() * perUnit));
    g.write(c, b);
    return b;
  }

  private static Block await(Future<Block> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while generating SSB data", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof UncheckedIOException) {
        throw ((UncheckedIOException) cause).getCause();
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IOException("SSB generation failed", cause);
    }
  }

  /**
   * Stand-alone entry point: {@code --scale SF --output DIR [--threads N]
   * [--dbgen-truncated-date]}. Prints the elapsed time per run to standard output.
   */
  public static void main(String[] args) throws IOException {
    double sf = 1;
    Path dir = Paths.get(".");
    int threads = Runtime.getRuntime().availableProcessors();
    boolean truncated = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--scale":
          sf = Double.parseDouble(args[++i]);
          break;
        case "--output":
          dir = Paths.get(args[++i]);
          break;
        case "--threads":
          threads = Integer.parseInt(args[++i]);
          break;
        case "--dbgen-truncated-date":
          truncated = true;
          break;
        default:
          throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    long t0 = System.nanoTime();
    Map<SsbTable, Path> files = generate(sf, dir, threads, truncated);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.println(
        String.format(
            Locale.ROOT,
            "ssb generate sf=%s threads=%d: %d ms -> %s",
            sf,
            threads,
            ms,
            files.values()));
  }
}
