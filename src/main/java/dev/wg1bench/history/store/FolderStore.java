package dev.wg1bench.history.store;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.wg1bench.history.analysis.Series;
import dev.wg1bench.json.Json;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The default history: a folder of one JSON file per run ({@code runs/<id>.json}) that needs
 * nothing installed. Append-only without a lock: each run is written to a temporary file and then
 * hard-linked to its final name, which the file system does atomically and refuses when the name
 * exists, so writers in any number of threads and processes never see half a run and never write
 * over one. The name is the run's id, made from the run ({@link RunIds#of}): of writers appending
 * one run at once, one link succeeds and the others find it already stored.
 */
final class FolderStore implements HistoryStore {
  /** Times as ISO text, so a stored run reads as what it is. */
  private static final ObjectWriter WRITER =
      Json.MAPPER.writer().without(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  private final Path dir;
  private final Path runs;

  FolderStore(Path dir) {
    this.dir = dir;
    this.runs = dir.resolve("runs");
  }

  @Override
  public Appended append(StoredRun run) throws IOException {
    StoredRun stored =
        new StoredRun(RunIds.of(run), run.time(), run.kind(), run.attributes(), run.metrics());
    Path target = runs.resolve(stored.id() + ".json");
    if (Files.exists(target)) {
      return new Appended(read(target), true);
    }
    Files.createDirectories(runs);
    Path tmp = Files.createTempFile(runs, ".append-", ".tmp");
    try {
      WRITER.writeValue(tmp.toFile(), RunFile.of(stored));
      try {
        link(target, tmp);
        return new Appended(stored, false);
      } catch (FileAlreadyExistsException taken) {
        // another writer linked the same run first: it is stored, once
        return new Appended(read(target), true);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Gives the written file its name, failing if the name exists. */
  private static void link(Path target, Path written) throws IOException {
    try {
      Files.createLink(target, written);
    } catch (UnsupportedOperationException e) {
      // a file system without hard links: a move that refuses an existing name (checked, then
      // renamed: two writers of one run could race here, and both would write the same bytes)
      Files.move(written, target);
    }
  }

  @Override
  public List<StoredRun> runs() throws IOException {
    List<StoredRun> out = new ArrayList<>();
    if (!Files.isDirectory(runs)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(runs, "*.json")) {
      for (Path f : files) {
        if (f.getFileName().toString().startsWith(".")) {
          continue;
        }
        out.add(read(f));
      }
    }
    out = RunIds.once(out);
    out.sort(SeriesOf.OLDEST_FIRST);
    return out;
  }

  private static StoredRun read(Path f) throws IOException {
    RunFile r;
    try {
      r = Json.MAPPER.readValue(f.toFile(), RunFile.class);
    } catch (IOException e) {
      throw new IOException(f + ": not a stored run (" + oneLine(e.getMessage()) + ")", e);
    }
    if (r.format() > RunFile.FORMAT) {
      throw new NewerFormatException(
          f
              + " was stored by a newer wg1bench (run file format "
              + r.format()
              + ", this one reads up to "
              + RunFile.FORMAT
              + "): use that version or a newer one");
    }
    return r.run();
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }

  @Override
  public List<Series> series(String glob) throws IOException {
    return SeriesOf.of(runs(), glob);
  }

  @Override
  public String describe() {
    return dir.toString();
  }

  @Override
  public void close() {}
}
