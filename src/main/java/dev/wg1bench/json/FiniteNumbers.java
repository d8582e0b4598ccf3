package dev.wg1bench.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Only numbers reach a verdict: a result's figure read as a {@code double} or {@code Double} must
 * be a JSON number and finite. Jackson's defaults take the string {@code "NaN"} (and {@code "1.5"})
 * into a double field and read {@code -1e400} as -Infinity, which a gate then compared as a figure;
 * here either is refused with the field's path and what it held, e.g. {@code
 * trials[0].measurement.tps is "NaN", not a finite number}. A JSON null in a {@code Double} field
 * stays null (the figure is missing, which readers show as missing); in a {@code double} one it is
 * refused too, and so is a {@code double} a trial's measurement lacks (Jackson would read 0).
 * Counts ({@code long}, {@code int}) must be JSON integers in range: not "5", 5.5 or 1e30.
 */
public final class FiniteNumbers {
  private FiniteNumbers() {}

  /** A figure that is no finite number; the message names the field and what it held. */
  public static final class NotAFigure extends JsonMappingException {
    private static final long serialVersionUID = 1L;

    NotAFigure(JsonParser p, String message) {
      super(p, message);
    }
  }

  /**
   * The module: {@code double} and {@code Double} read as finite JSON numbers only, {@code long},
   * {@code int} and their boxes as JSON integers in range only.
   */
  public static SimpleModule module() {
    SimpleModule m = new SimpleModule("wg1bench-finite-numbers");
    m.addDeserializer(Double.TYPE, new Figure<>(Double.TYPE, null));
    m.addDeserializer(Double.class, new Figure<>(Double.class, null));
    m.addDeserializer(Long.TYPE, new Figure<>(Long.TYPE, Long.MAX_VALUE));
    m.addDeserializer(Long.class, new Figure<>(Long.class, Long.MAX_VALUE));
    m.addDeserializer(Integer.TYPE, new Figure<>(Integer.TYPE, (long) Integer.MAX_VALUE));
    m.addDeserializer(Integer.class, new Figure<>(Integer.class, (long) Integer.MAX_VALUE));
    return m;
  }

  /** One kind of number; {@code max} is an integer type's largest value, null for a double. */
  private static final class Figure<T> extends StdDeserializer<T>
      implements ContextualDeserializer {
    private static final long serialVersionUID = 1L;
    private final Long max;
    private final String property;

    Figure(Class<T> type, Long max) {
      this(type, max, null);
    }

    private Figure(Class<?> type, Long max, String property) {
      super(type);
      this.max = max;
      this.property = property;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty p) {
      return new Figure<>(handledType(), max, p == null ? null : p.getName());
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonToken t = p.currentToken();
      if (max != null) {
        return (T) integer(p, t);
      }
      if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
        double d = p.getDoubleValue();
        if (Double.isFinite(d)) {
          return (T) Double.valueOf(d);
        }
        String text = p.getText();
        throw refuse(p, text.equals(String.valueOf(d)) ? text : text + " (" + d + ")", "number");
      }
      throw refuse(p, shown(p, t), "number");
    }

    private Object integer(JsonParser p, JsonToken t) throws IOException {
      if (t == JsonToken.VALUE_NUMBER_INT) {
        try {
          long v = p.getLongValue();
          if (Math.abs(v) <= max) {
            return max == Long.MAX_VALUE ? (Object) v : (Object) (int) v;
          }
        } catch (InputCoercionException tooLarge) {
          // beyond a long: refused below
        }
      }
      throw refuse(p, shown(p, t), "integer in range");
    }

    @Override
    public T getNullValue(DeserializationContext ctxt) throws JsonMappingException {
      if (!handledType().isPrimitive()) {
        return null;
      }
      throw refuse(ctxt.getParser(), "null", max == null ? "number" : "integer");
    }

    /**
     * A figure the result lacks: a box is null (missing, and shown so); a {@code double} of a
     * trial's measurement (tps, its rates and seconds, its latencies) is refused, where Jackson
     * would read 0, a figure no run measured; any other {@code double} and a count are 0, as
     * results written before the field existed say.
     */
    @Override
    @SuppressWarnings("unchecked")
    public T getAbsentValue(DeserializationContext ctxt) throws JsonMappingException {
      if (!handledType().isPrimitive()) {
        return null;
      }
      if (max != null) {
        return (T) (max == Long.MAX_VALUE ? (Object) 0L : (Object) 0);
      }
      JsonParser p = ctxt.getParser();
      String where = path(p);
      if (!where.matches("trials\\[\\d+]\\.measurement.*")) {
        return (T) Double.valueOf(0);
      }
      throw new NotAFigure(
          p,
          where
              + ": no "
              + (property == null ? "figure" : property)
              + " (missing), where a finite number is needed");
    }

    private static String shown(JsonParser p, JsonToken t) throws IOException {
      return switch (t) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        case VALUE_NULL -> "null";
        case VALUE_STRING -> "\"" + p.getText() + "\"";
        default -> p.getText();
      };
    }
  }

  static NotAFigure refuse(JsonParser p, String held, String wanted) {
    String text = held.length() > 40 ? held.substring(0, 40) + "..." : held;
    String a = wanted.equals("number") ? "a finite number" : "an " + wanted;
    return new NotAFigure(p, path(p) + " is " + text + ", not " + a);
  }

  /** Where the parser is, as {@code trials[0].measurement.tps}. */
  static String path(JsonParser p) {
    ArrayDeque<String> parts = new ArrayDeque<>();
    for (JsonStreamContext c = p.getParsingContext(); c != null; c = c.getParent()) {
      if (c.inObject() && c.getCurrentName() != null) {
        parts.addFirst("." + c.getCurrentName());
      } else if (c.inArray()) {
        parts.addFirst("[" + Math.max(0, c.getCurrentIndex()) + "]");
      }
    }
    String s = String.join("", parts);
    return s.startsWith(".") ? s.substring(1) : s.isEmpty() ? "a figure" : s;
  }
}
