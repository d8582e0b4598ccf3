package dev.wg1bench.replay.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a replay's JSON result (one replay, or a sweep's trials) into {@link ReplayResult}s, those
 * written before 2026-12-06 too: every reader of replay results goes through here, so an older
 * shape is recognised in one place.
 */
public final class ReplayJson {
  /** What a replay's throughput says of its interval: one replay per trial, no spread to show. */
  public static final String TPS_INTERVAL = "none: one replay per trial";

  private ReplayJson() {}

  /**
   * The trials of a result of kind "replay" or "replay-sweep", or null for any other kind.
   *
   * @throws JsonProcessingException when the tree is not a replay result the codec can bind
   */
  public static List<ReplayResult> trials(ObjectCodec codec, JsonNode tree)
      throws JsonProcessingException {
    String kind = tree == null ? "" : tree.path("kind").asText("");
    switch (kind) {
      case "replay":
        return List.of(codec.treeToValue(upgrade(tree.deepCopy()), ReplayResult.class));
      case "replay-sweep":
        ObjectNode sweep = tree.deepCopy();
        if (sweep.get("trials") instanceof ArrayNode a) {
          List<JsonNode> trials = new ArrayList<>();
          a.forEach(trials::add);
          a.removeAll();
          trials.forEach(t -> a.add(upgrade(t)));
        }
        return codec.treeToValue(sweep, ReplaySweep.class).trials();
      default:
        return null;
    }
  }

  /**
   * A trial as it is written now. Before 2026-12-06 a replay's {@code throughput} held its wall and
   * captured seconds, its window, what it sent and both rates; they are now a run's {@code
   * Measurement.Throughput} (tps over the window) and the replay's {@code pace}, built here from
   * the same figures as {@code ReplayResults} builds them.
   */
  static JsonNode upgrade(JsonNode trial) {
    if (!(trial instanceof ObjectNode t)
        || t.has("pace")
        || !(t.get("throughput") instanceof ObjectNode old)
        || !old.has("transactionsPerSecond")) {
      return trial;
    }
    ObjectNode pace = t.objectNode();
    for (String f :
        List.of(
            "wallSeconds",
            "capturedSeconds",
            "statements",
            "transactions",
            "statementsPerSecond")) {
      pace.set(f, old.get(f));
    }
    ObjectNode throughput = t.objectNode();
    throughput.set("tps", old.get("transactionsPerSecond"));
    throughput.putNull("tpsError");
    throughput.put("tpsInterval", TPS_INTERVAL);
    throughput.set("attemptedOpsPerSecond", old.get("transactionsPerSecond"));
    throughput.set("measuredSeconds", old.get("windowSeconds"));
    throughput.putNull("serverCommitsPerSecond");
    t.set("throughput", throughput);
    t.set("pace", pace);
    return t;
  }
}
