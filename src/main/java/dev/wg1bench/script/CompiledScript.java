package dev.wg1bench.script;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A script ready to run: steps with variables resolved to slot indexes. Each client keeps an {@code
 * Object[slotCount()]} (see {@link #newSlots}) inside its {@link EvalContext}. Immutable and
 * shareable between clients.
 */
public final class CompiledScript {
  private final String sourceName;
  private final Map<String, String> directives;
  private final List<Step> steps;
  private final List<String> slotNames;
  private final Map<String, Integer> slotIndex = new HashMap<>();

  CompiledScript(
      String sourceName, Map<String, String> directives, List<Step> steps, List<String> slotNames) {
    this.sourceName = sourceName;
    this.directives = directives;
    this.steps = List.copyOf(steps);
    this.slotNames = Collections.unmodifiableList(slotNames);
    for (int i = 0; i < slotNames.size(); i++) {
      slotIndex.put(slotNames.get(i), i);
    }
  }

  public String sourceName() {
    return sourceName;
  }

  public int slotCount() {
    return slotNames.size();
  }

  /** Slot of a variable, or -1 if the script never mentions it. */
  public int slotOf(String name) {
    Integer i = slotIndex.get(name);
    return i == null ? -1 : i;
  }

  /** Variable name of each slot, by slot index. */
  public List<String> slotNames() {
    return slotNames;
  }

  public List<Step> steps() {
    return steps;
  }

  public Map<String, String> directives() {
    return directives;
  }

  /**
   * A fresh slot array holding the given initial values (predefined variables) for the names the
   * script mentions. Values are normalized once here (numeric strings and other Number types become
   * Long/Double) so evaluation does not re-parse them; strings that are not numbers are kept as
   * text.
   */
  public Object[] newSlots(Map<String, ?> initial) {
    Object[] slots = new Object[slotCount()];
    Arrays.fill(slots, Values.UNDEFINED);
    for (Map.Entry<String, ?> e : initial.entrySet()) {
      int s = slotOf(e.getKey());
      if (s >= 0) {
        Object v = e.getValue();
        try {
          Object n = Values.normalize(v);
          // only numbers are converted; "on"/"null"... stay text for SQL, expressions still
          // interpret them on use
          if (n instanceof Long || n instanceof Double) {
            v = n;
          }
        } catch (ScriptRuntimeException ex) {
          // not a number: only usable as SQL text, keep as is
        }
        slots[s] = v;
      }
    }
    return slots;
  }
}
