package dev.wg1bench.history.format;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wg1bench.history.store.StoredMetric;
import dev.wg1bench.history.store.StoredRun;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Apache Otava's JSON test format, as its JSON importer reads it: an array of runs, each {@code
 * {"timestamp": SECONDS, "metrics": [{"name": N, "value": V}, ...], "attributes": {K: V, ...}}}.
 */
public final class OtavaJson {
  private OtavaJson() {}

  /**
   * Every entry of the file as a run to store, metrics named {@code SERIES/NAME}.
   *
   * @throws UsageException naming the file, and the line and column where the bad entry starts
   */
  public static List<StoredRun> read(ImportSpec spec) {
    String text = ImportFiles.text(spec.file());
    String where = spec.file().toString();
    if (!ImportFiles.looksJson(text) || ImportFiles.looksWg1benchResult(text)) {
      throw ImportFiles.otherKind(spec.file(), "Otava JSON", text);
    }
    List<StoredRun> runs = new ArrayList<>();
    try (JsonParser p = Json.MAPPER.getFactory().createParser(text)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new UsageException(
            where
                + ":1:1: Otava JSON is an array of runs ([{\"timestamp\": ..., \"metrics\": [...],"
                + " \"attributes\": {...}}, ...]); this file is an object");
      }
      int n = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        n++;
        JsonLocation at = p.currentTokenLocation();
        JsonNode e = p.readValueAsTree();
        String here = where + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": run " + n;
        runs.add(run(spec, e, here, n));
      }
      if (p.nextToken() != null) {
        JsonLocation at = p.currentTokenLocation();
        throw new UsageException(
            where + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": text after the array");
      }
    } catch (JsonProcessingException e) {
      JsonLocation l = e.getLocation();
      throw new UsageException(
          where
              + (l == null ? "" : ":" + l.getLineNr() + ":" + l.getColumnNr())
              + ": not JSON: "
              + e.getOriginalMessage().replaceAll("\\s+", " "));
    } catch (IOException e) {
      throw new UsageException(where + ": cannot read: " + e.getMessage());
    }
    if (runs.isEmpty()) {
      throw new UsageException(where + ": an empty array: nothing to import");
    }
    return runs;
  }

  private static StoredRun run(ImportSpec spec, JsonNode e, String here, int n) {
    if (!(e instanceof ObjectNode)) {
      throw new UsageException(
          here + ": not an object {\"timestamp\", \"metrics\", \"attributes\"}");
    }
    // checked in the order the fields are documented, so the first bad one is named
    Instant time = timestamp(e, here);
    List<StoredMetric> metrics = metrics(spec, e, here);
    Map<String, String> attributes = attributes(e, here);
    attributes.put("source", spec.file().getFileName() + " run " + n);
    return new StoredRun(null, time, "otava-json", attributes, metrics);
  }

  /** 9999-12-31T23:59:59Z, in seconds since 1970. */
  private static final long LATEST_SECOND = 253_402_300_799L;

  /** Seconds since 1970, a fraction kept to the nanosecond (a double would round it). */
  private static Instant timestamp(JsonNode e, String here) {
    JsonNode ts = e.get("timestamp");
    if (ts == null || !ts.isNumber()) {
      throw new UsageException(
          here + ": \"timestamp\" must be a number (seconds since 1970), found " + shown(ts));
    }
    // -1e400 is read as -Infinity, which no BigDecimal holds; year 9999 is as far as a time goes
    if (!Double.isFinite(ts.doubleValue()) || Math.abs(ts.doubleValue()) > LATEST_SECOND) {
      throw new UsageException(
          here
              + ": \"timestamp\" "
              + ts.asText()
              + " is no time (seconds since 1970, up to the year 9999)");
    }
    BigDecimal s = ts.decimalValue();
    return Instant.ofEpochSecond(
        s.longValue(), s.remainder(BigDecimal.ONE).movePointRight(9).longValue());
  }

  /** Each named finite value once: a name twice in one run would be two values of one point. */
  private static List<StoredMetric> metrics(ImportSpec spec, JsonNode e, String here) {
    JsonNode ms = e.get("metrics");
    if (!(ms instanceof ArrayNode)) {
      throw new UsageException(
          here
              + ": \"metrics\" must be an array of {\"name\": ..., \"value\": ...}, found "
              + shown(ms));
    }
    List<StoredMetric> metrics = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      JsonNode m = ms.get(i);
      String mi = here + ": metrics[" + i + "]";
      JsonNode name = m.get("name");
      JsonNode value = m.get("value");
      if (name == null || !name.isTextual() || name.asText().isBlank()) {
        throw new UsageException(mi + ": \"name\" must be a text, found " + shown(name));
      }
      if (value == null || !value.isNumber() || !Double.isFinite(value.doubleValue())) {
        throw new UsageException(
            mi + " (" + name.asText() + "): \"value\" must be a number, found " + shown(value));
      }
      if (names.contains(name.asText())) {
        throw new UsageException(mi + ": metric '" + name.asText() + "' twice in one run");
      }
      names.add(name.asText());
      metrics.add(spec.metric(name.asText(), value.doubleValue()));
    }
    return metrics;
  }

  /** Optional; values are texts (a number or boolean is kept as its text), a null is left out. */
  private static Map<String, String> attributes(JsonNode e, String here) {
    Map<String, String> attributes = new LinkedHashMap<>();
    JsonNode as = e.get("attributes");
    if (as == null || as.isNull()) {
      return attributes;
    }
    if (!as.isObject()) {
      throw new UsageException(
          here + ": \"attributes\" must be an object of texts, found " + shown(as));
    }
    Iterator<Map.Entry<String, JsonNode>> it = as.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> a = it.next();
      if (!a.getValue().isValueNode()) {
        throw new UsageException(
            here + ": attribute '" + a.getKey() + "' must be a text, found " + shown(a.getValue()));
      }
      if (!a.getValue().isNull()) {
        attributes.put(a.getKey(), a.getValue().asText());
      }
    }
    return attributes;
  }

  private static String shown(JsonNode n) {
    if (n == null) {
      return "nothing";
    }
    String s = n.toString();
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /**
   * The table as Otava JSON: one entry per run that has a value in every column (Otava's importer
   * lines the metrics of all entries up by position), with the run's commit, branch, version and id
   * as attributes, each present in every entry.
   */
  static String write(ExportTable table) {
    List<ExportTable.Row> rows = table.completeRows();
    List<String> attrs = table.attributesPresent(List.of("commit", "branch", "version"), rows);
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (ExportTable.Row r : rows) {
      ObjectNode o = out.addObject();
      long seconds = r.time().getEpochSecond();
      o.put("timestamp", seconds);
      ArrayNode ms = o.putArray("metrics");
      for (int c = 0; c < table.columns.size(); c++) {
        ms.addObject().put("name", table.columns.get(c)).put("value", r.points()[c].value());
      }
      ObjectNode a = o.putObject("attributes");
      attrs.forEach(k -> a.put(k, r.attributes().getOrDefault(k, "")));
      a.put("run", r.runId());
    }
    try {
      return Json.MAPPER.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
