package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.postgresql.PGProperty;

/**
 * pgjdbc settings that a run varies, each recorded in the result. Unset (null) means the driver's
 * default, which is also recorded.
 *
 * @param sslmode pgjdbc sslmode
 * @param prepareThreshold executions before pgjdbc switches to a named server-side statement;
 *     overrides the query mode's value
 * @param properties any other pgjdbc property, by its pgjdbc name (--jdbc-property)
 * @param declared the pgjdbc properties of the knobs declared with {@code stored(...).pgjdbc(...)}
 *     (--binary-transfer, --fetch-size, --rewrite-batched-inserts, --rtt and any new one), by
 *     pgjdbc name; rebuilt from the plan's knobs, and written (when any) so that client settings
 *     read back in a fork apply them as the settings that wrote them did
 */
public record DriverKnobs(
    String sslmode,
    Integer prepareThreshold,
    Map<String, String> properties,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> declared) {

  static final List<String> SSLMODES =
      List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  /**
   * Properties that would put a secret where results are written, or that have their own option:
   * the query mode's two, and every knob that declares its pgjdbc property.
   */
  static Map<String, String> reserved() {
    Map<String, String> r = new LinkedHashMap<>();
    r.put("password", "give it in the URL, PGPASSWORD or --password-file");
    r.put("user", "give it in the URL or PGUSER");
    r.put("preferQueryMode", "use --query-mode");
    r.put("prepareThreshold", "use --prepare-threshold");
    for (Knob<?> k : Knobs.ALL) {
      if (k.pgProperty() != null) {
        r.put(k.pgProperty().getName(), "use " + k.option());
      }
    }
    return r;
  }

  public static DriverKnobs defaults() {
    return new DriverKnobs(null, null, Map.of(), Map.of());
  }

  public DriverKnobs {
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    declared =
        declared == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(declared));
  }

  /**
   * Reads driver settings as written by this build or an older one, whose --binary-transfer,
   * --fetch-size and --rewrite-batched-inserts had fields of their own: their values join the
   * declared properties, so a plan written before keeps its effect on every connection.
   */
  @JsonCreator
  static DriverKnobs read(
      @JsonProperty("sslmode") String sslmode,
      @JsonProperty("prepareThreshold") Integer prepareThreshold,
      @JsonProperty("binaryTransfer") Boolean binaryTransfer,
      @JsonProperty("fetchSize") Integer fetchSize,
      @JsonProperty("rewriteBatchedInserts") Boolean rewriteBatchedInserts,
      @JsonProperty("properties") Map<String, String> properties,
      @JsonProperty("declared") Map<String, String> declared) {
    Map<String, String> all = new LinkedHashMap<>();
    if (binaryTransfer != null) {
      all.put(PGProperty.BINARY_TRANSFER.getName(), binaryTransfer.toString());
    }
    if (fetchSize != null) {
      all.put(PGProperty.DEFAULT_ROW_FETCH_SIZE.getName(), fetchSize.toString());
    }
    if (Boolean.TRUE.equals(rewriteBatchedInserts)) {
      all.put(PGProperty.REWRITE_BATCHED_INSERTS.getName(), "true");
    }
    if (declared != null) {
      all.putAll(declared);
    }
    return new DriverKnobs(
        sslmode, prepareThreshold, properties == null ? Map.of() : properties, all);
  }

  /** pgjdbc binaryTransfer (--binary-transfer), or null for pgjdbc's default. */
  @JsonIgnore
  public Boolean binaryTransfer() {
    return Knobs.BINARY_TRANSFER.fromDriver(this);
  }

  /** pgjdbc defaultRowFetchSize (--fetch-size), or null for pgjdbc's default. */
  @JsonIgnore
  public Integer fetchSize() {
    return Knobs.FETCH_SIZE.fromDriver(this);
  }

  /** pgjdbc reWriteBatchedInserts (--rewrite-batched-inserts). */
  @JsonIgnore
  public boolean rewriteBatchedInserts() {
    return Boolean.TRUE.equals(Knobs.REWRITE_BATCHED_INSERTS.fromDriver(this));
  }

  /** These settings with other --jdbc-property properties (a replayed session's name, say). */
  public DriverKnobs withProperties(Map<String, String> others) {
    return new DriverKnobs(sslmode, prepareThreshold, others, declared);
  }

  /**
   * Every pgjdbc property these settings set, by pgjdbc name: each knob that declares its property,
   * in declaration order, then --jdbc-property's (prepareThreshold and preferQueryMode excepted:
   * the query mode decides them with --prepare-threshold).
   */
  public Map<String, String> pgjdbc() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Knob<?> k : Knobs.ALL) {
      // the delay line's argument goes with the line, which the connection factory installs on
      // the clients' connections only when the round-trip time is not zero
      String v = k == Knobs.RTT ? null : k.pgjdbcValue(this);
      if (v != null) {
        out.put(k.pgProperty().getName(), v);
      }
    }
    out.putAll(properties);
    return out;
  }

  /**
   * These settings with the properties of stored knobs added (see {@link Knobs#declaredPgjdbc}).
   */
  DriverKnobs withDeclared(Map<String, String> more) {
    if (more.isEmpty() || declared.entrySet().containsAll(more.entrySet())) {
      return this;
    }
    Map<String, String> all = new LinkedHashMap<>(declared);
    all.putAll(more);
    return new DriverKnobs(sslmode, prepareThreshold, properties, all);
  }

  /** The round-trip time --rtt adds to client connections; zero when none. */
  public Duration rtt() {
    String text = Knobs.RTT.pgjdbcValue(this);
    return text == null ? Duration.ZERO : RoundTrip.parse(text);
  }

  /** --jdbc-property names and values, checked against pgjdbc's own list. */
  public static void checkProperties(Map<String, String> properties) {
    for (String name : properties.keySet()) {
      String why = reserved().get(name);
      if (why != null) {
        throw new UsageException("--jdbc-property " + name + ": " + why);
      }
      if (PGProperty.forName(name) == null) {
        throw new UsageException(
            "--jdbc-property '"
                + name
                + "' is not a pgjdbc property; closest: "
                + String.join(", ", closest(name)));
      }
      PGProperty p = PGProperty.forName(name);
      String what = expected(p, properties.get(name), false);
      if (what != null) {
        throw new UsageException(
            "--jdbc-property "
                + p.getName()
                + "='"
                + properties.get(name)
                + "' is not valid; expected "
                + what);
      }
    }
  }

  /**
   * A pgjdbc property in a {@code --target} URL's query checked as {@code --jdbc-property} checks
   * it: pgjdbc refuses a bad {@code sslmode} (or any listed choice, or an integer) only when
   * connecting, which was exit 1 after a target started ("connecting failed: Invalid sslmode value:
   * bogus"), and reads a bad boolean as false. Case is ignored, as pgjdbc ignores it for sslmode,
   * and a name pgjdbc does not know is left to it (it ignores one).
   *
   * @param target the {@code --target} text as typed, password removed
   */
  public static void checkUrlProperty(String target, String name, String value) {
    PGProperty p = PGProperty.forName(name);
    String what = p == null ? null : expected(p, value, true);
    if (what != null) {
      throw new UsageException(
          "--target '" + target + "': " + name + "='" + value + "' is not valid; expected " + what);
    }
  }

  /**
   * What a value pgjdbc would reject only when connecting (after an embedded server started, as
   * exit 1) should have been, or null when it is valid: integers where the default is one,
   * booleans, listed choices.
   */
  private static String expected(PGProperty p, String value, boolean ignoreCase) {
    String v = ignoreCase ? value.strip().toLowerCase(Locale.ROOT) : value.strip();
    String[] choices = p.getChoices();
    String def = p.getDefaultValue();
    String what = null;
    if (choices != null && choices.length > 0) {
      if (Arrays.stream(choices)
          .noneMatch(c -> (ignoreCase ? c.toLowerCase(Locale.ROOT) : c).equals(v))) {
        what = "one of " + String.join(", ", choices);
      }
    } else if (def != null && def.matches("-?\\d+")) {
      try {
        Integer.parseInt(v);
      } catch (NumberFormatException e) {
        what = "an integer";
      }
    } else if ("true".equals(def) || "false".equals(def)) {
      if (!v.equals("true") && !v.equals("false")) {
        what = "true or false";
      }
    }
    return what;
  }

  /** The three pgjdbc property names nearest to a misspelled one (edit distance, ignoring case). */
  static List<String> closest(String name) {
    List<String> all = new ArrayList<>();
    for (PGProperty p : PGProperty.values()) {
      all.add(p.getName());
    }
    String n = name.toLowerCase(Locale.ROOT);
    all.sort(
        Comparator.comparingInt((String c) -> distance(n, c.toLowerCase(Locale.ROOT)))
            .thenComparing(c -> c));
    return all.subList(0, Math.min(3, all.size()));
  }

  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** Names of the driver properties these knobs set, for the record. */
  public static Set<String> optionProperties() {
    return reserved().keySet();
  }
}
