package dev.wg1bench.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.postgresql.PGProperty;

/**
 * One knob of a run, declared once in {@link Knobs}: its command-line option and help, whether it
 * sweeps, how its value is checked, where it lives in a {@link RunPlan}, its label in a point (and
 * so its column in the JSON's points and the CSV), and the session settings it implies. The CLI,
 * the sweep, the point labels and the Java API are all generated from these declarations.
 *
 * @param <T> the value one point has: an element of the option's comma list, a NAME=VALUE map, a
 *     flag, or a single value
 */
public final class Knob<T> {
  /** How the option reads on the command line. */
  public enum Shape {
    /** Comma list; each element is a point (when it sweeps). */
    LIST,
    /** Repeatable NAME=VALUE; NAME=V1,V2 gives a point per value (when it sweeps). */
    MAP,
    /** One value. */
    SINGLE,
    /** On when given. */
    FLAG
  }

  private final String key;
  private final List<String> names;
  private final String paramLabel;
  private final List<String> help;
  private final Shape shape;
  private final boolean sweeps;
  private final Class<?> type;
  private final Function<String, ?> parse;
  private final T unset;
  private final Function<RunPlan, T> read;
  private final BiConsumer<PlanDraft, T> write;
  private final BiConsumer<T, RunPlan> check;
  private final Function<T, Map<String, String>> labels;
  private final Function<T, Map<String, String>> sessionSettings;
  private final String unsetLabel;
  private final Function<T, String> format;
  private final Function<String, T> storedFrom;
  private final PGProperty pgProperty;
  private final Function<DriverKnobs, T> driverRead;

  private Knob(Builder<T> b) {
    this.key = b.key;
    this.names = List.copyOf(b.names);
    this.paramLabel = b.paramLabel;
    this.help = List.copyOf(b.help);
    this.shape = b.shape;
    this.sweeps = b.sweeps;
    this.type = b.type;
    this.parse = b.parse;
    this.unset = b.unset;
    this.read = Objects.requireNonNull(b.read, "read");
    this.write = Objects.requireNonNull(b.write, "write");
    this.check = b.check;
    this.labels = b.labels != null ? b.labels : defaultLabels(b);
    this.sessionSettings = b.sessionSettings;
    this.unsetLabel = b.unsetLabel;
    this.format = b.format;
    this.storedFrom = b.storedFrom;
    this.pgProperty = b.pgProperty;
    this.driverRead = b.driverRead();
  }

  /** The knob's name in a point, the JSON, the CSV and the Java API, e.g. {@code fetchSize}. */
  public String key() {
    return key;
  }

  /** Option names, the long one last, e.g. {@code -c, --clients}. */
  public List<String> names() {
    return names;
  }

  public String option() {
    return names.get(names.size() - 1);
  }

  public String paramLabel() {
    return paramLabel;
  }

  public List<String> help() {
    return help;
  }

  /** The value a plan holds when nobody sets this knob (null when it is simply absent). */
  public T unset() {
    return unset;
  }

  public Shape shape() {
    return shape;
  }

  public boolean sweeps() {
    return sweeps;
  }

  /** Element type on the command line (LIST and SINGLE): what the CLI converts text to. */
  public Class<?> type() {
    return type;
  }

  /**
   * Text to element for types the CLI cannot convert by itself; an {@link IllegalArgumentException}
   * names what would be valid. Null when the CLI's own conversion fits.
   */
  public Function<String, ?> parser() {
    return parse;
  }

  /** The value in a plan. */
  public T get(RunPlan plan) {
    return read.apply(plan);
  }

  void set(PlanDraft d, T value) {
    write.accept(d, value);
  }

  /** The option's constraints on a built plan (combinations with other knobs included). */
  void validate(RunPlan plan) {
    if (check != null) {
      T v = get(plan);
      if (v != null) {
        check.accept(v, plan);
      }
    }
  }

  /** What this knob adds to a point's labels (nothing when it is unset). */
  public Map<String, String> labels(RunPlan plan) {
    T v = get(plan);
    if (v == null) {
      return unsetLabel == null ? Map.of() : Map.of(key, unsetLabel);
    }
    return labels.apply(v);
  }

  /** The pgjdbc property this knob sets on every connection, or null. */
  public PGProperty pgProperty() {
    return pgProperty;
  }

  /**
   * The text this knob gives its pgjdbc property in these driver settings; null when it sets none
   * (not a pgjdbc knob, unset, or a flag that is off).
   */
  String pgjdbcValue(DriverKnobs d) {
    T v = fromDriver(d);
    if (v == null || (shape == Shape.FLAG && !Boolean.TRUE.equals(v))) {
      return null;
    }
    return format.apply(v);
  }

  /** This pgjdbc knob's value in driver settings, or null (unset, or not a pgjdbc knob). */
  T fromDriver(DriverKnobs d) {
    return driverRead == null ? null : driverRead.apply(d);
  }

  /** The knob's value as stored text in a plan's knobs, or null when it has no field there. */
  String storedText(Map<String, String> knobs) {
    return storedFrom == null ? null : knobs.get(key);
  }

  /** Session settings this knob's value implies on every client connection. */
  Map<String, String> sessionSettings(RunPlan plan) {
    T v = get(plan);
    return v == null || sessionSettings == null ? Map.of() : sessionSettings.apply(v);
  }

  /**
   * The values a sweep goes through for the option's raw value (a list, a map, a value or a flag,
   * as the CLI parsed it; null when not given).
   */
  @SuppressWarnings("unchecked")
  public List<T> points(Object raw) {
    List<T> out = new ArrayList<>();
    switch (shape) {
      case LIST -> {
        List<T> given = raw == null ? List.of() : (List<T>) raw;
        if (given.isEmpty()) {
          out.add(unset);
        } else {
          out.addAll(new LinkedHashSet<>(given));
        }
      }
      case MAP -> {
        Map<String, String> given = raw == null ? Map.of() : (Map<String, String>) raw;
        if (sweeps) {
          out.addAll((List<T>) (List<?>) combos(given));
        } else {
          out.add((T) new LinkedHashMap<>(given));
        }
      }
      case FLAG -> out.add((T) Boolean.valueOf(raw != null && (Boolean) raw));
      default -> out.add(raw == null ? unset : (T) raw);
    }
    return out;
  }

  /** --set a=1,2 --set b=x gives {a=1,b=x} and {a=2,b=x}; "\," keeps a literal comma. */
  static List<Map<String, String>> combos(Map<String, String> settings) {
    List<Map<String, String>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (Map.Entry<String, String> e : settings.entrySet()) {
      LinkedHashSet<String> values = new LinkedHashSet<>();
      for (String v : e.getValue().split("(?<!\\\\),", -1)) {
        values.add(v.replace("\\,", ","));
      }
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> m : out) {
        for (String v : values) {
          Map<String, String> n = new LinkedHashMap<>(m);
          n.put(e.getKey(), v);
          next.add(n);
        }
      }
      out = next;
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T> Function<T, Map<String, String>> defaultLabels(Builder<T> b) {
    return switch (b.shape) {
      case MAP ->
          v -> {
            Map<String, String> m = new LinkedHashMap<>();
            ((Map<String, String>) v).forEach((k, x) -> m.put(b.labelPrefix + k, x));
            return m;
          };
      case FLAG -> v -> Boolean.TRUE.equals(v) ? Map.of(b.key, "true") : Map.of();
      default -> v -> Map.of(b.key, b.format.apply(v));
    };
  }

  @Override
  public String toString() {
    return option();
  }

  static <T> Builder<T> builder(String key, Shape shape, Class<?> type, String... names) {
    return new Builder<>(key, shape, type, names);
  }

  /** Declaration of a knob, read in {@link Knobs}. */
  static final class Builder<T> {
    private final String key;
    private final Shape shape;
    private final Class<?> type;
    private final List<String> names;
    private String paramLabel = "";
    private final List<String> help = new ArrayList<>();
    private boolean sweeps;
    private Function<String, ?> parse;
    private T unset;
    private Function<RunPlan, T> read;
    private BiConsumer<PlanDraft, T> write;
    private BiConsumer<T, RunPlan> check;
    private Function<T, String> format = String::valueOf;
    private String labelPrefix = "";
    private Function<T, Map<String, String>> labels;
    private Function<T, Map<String, String>> sessionSettings;
    private String unsetLabel;
    private PGProperty pgProperty;
    private Function<DriverKnobs, T> driverRead;
    private Function<String, T> storedFrom;

    private Builder(String key, Shape shape, Class<?> type, String... names) {
      this.key = key;
      this.shape = shape;
      this.type = type;
      this.names = List.of(names);
    }

    Builder<T> param(String label) {
      this.paramLabel = label;
      return this;
    }

    Builder<T> help(String... lines) {
      help.addAll(List.of(lines));
      return this;
    }

    Builder<T> sweeps() {
      this.sweeps = true;
      return this;
    }

    Builder<T> parse(Function<String, ?> p) {
      this.parse = p;
      return this;
    }

    Builder<T> unset(T v) {
      this.unset = v;
      return this;
    }

    Builder<T> in(Function<RunPlan, T> r, BiConsumer<PlanDraft, T> w) {
      this.read = r;
      this.write = w;
      return this;
    }

    /**
     * A knob with no field of its own in the plan's records: its value is kept as text under its
     * key in {@link RunPlan#knobs()}.
     */
    Builder<T> stored(Function<String, T> fromText, Function<T, String> toText) {
      this.read = p -> p.knobs().containsKey(key) ? fromText.apply(p.knobs().get(key)) : null;
      this.write =
          (d, v) -> {
            // a flag that is off is not given: stored as nothing, as it was never set
            if (v == null || (shape == Shape.FLAG && !Boolean.TRUE.equals(v))) {
              d.knobs.remove(key);
            } else {
              d.knobs.put(key, toText.apply(v));
            }
          };
      this.format = toText;
      this.storedFrom = fromText;
      return this;
    }

    /**
     * A pgjdbc knob with a field in {@link DriverKnobs}: read from there, and applied as {@code
     * property} on every connection by the connection factory's one loop.
     */
    Builder<T> driver(PGProperty property, Function<DriverKnobs, T> r, BiConsumer<PlanDraft, T> w) {
      this.pgProperty = property;
      this.driverRead = r;
      return in(p -> r.apply(p.driver()), w);
    }

    /**
     * A pgjdbc knob with no field of its own (declared with {@link #stored}): applied as {@code
     * property} on every connection, so a new pgjdbc knob is this one declaration.
     */
    Builder<T> pgjdbc(PGProperty property) {
      this.pgProperty = property;
      return this;
    }

    /** How a pgjdbc knob's value is read from driver settings. */
    private Function<DriverKnobs, T> driverRead() {
      if (driverRead != null || pgProperty == null) {
        return driverRead;
      }
      Objects.requireNonNull(storedFrom, "a pgjdbc knob needs driver(...) or stored(...)");
      String name = pgProperty.getName();
      return d -> d.declared().containsKey(name) ? storedFrom.apply(d.declared().get(name)) : null;
    }

    Builder<T> check(BiConsumer<T, RunPlan> c) {
      this.check = c;
      return this;
    }

    Builder<T> format(Function<T, String> f) {
      this.format = f;
      return this;
    }

    Builder<T> labelPrefix(String prefix) {
      this.labelPrefix = prefix;
      return this;
    }

    Builder<T> labels(Function<T, Map<String, String>> l) {
      this.labels = l;
      return this;
    }

    /** The label of the knob when unset, instead of none. */
    Builder<T> unsetLabel(String label) {
      this.unsetLabel = label;
      return this;
    }

    Builder<T> sessionSettings(Function<T, Map<String, String>> s) {
      this.sessionSettings = s;
      return this;
    }

    Knob<T> declare() {
      return new Knob<>(this);
    }
  }
}
