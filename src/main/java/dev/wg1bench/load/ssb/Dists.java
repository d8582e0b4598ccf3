package dev.wg1bench.load.ssb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Named distributions read from {@code ssb/dists.dss} on the classpath (GENERATOR.md sections 3.1
 * to 3.4).
 */
final class Dists {
  static final String RESOURCE = "/ssb/dists.dss";

  /** One distribution: members in file order with cumulative weights (3.1 step 6). */
  static final class Dist {
    final String[] names;
    final byte[][] bytes;
    final long[] cumulative;

    Dist(List<String> names, List<Long> weights) {
      int n = names.size();
      this.names = names.toArray(new String[0]);
      this.bytes = new byte[n][];
      this.cumulative = new long[n];
      long sum = 0;
      for (int i = 0; i < n; i++) {
        bytes[i] = this.names[i].getBytes(StandardCharsets.US_ASCII);
        sum += weights.get(i);
        cumulative[i] = sum;
      }
    }

    int size() {
      return names.length;
    }

    /** pick(dist, s) of 3.3: exactly one draw, first member whose cumulative weight is >= j. */
    int pick(Rng s) {
      long j = s.draw(1, cumulative[cumulative.length - 1]);
      for (int i = 0; i < cumulative.length; i++) {
        if (cumulative[i] >= j) {
          return i;
        }
      }
      return cumulative.length - 1;
    }
  }

  final Dist nations;
  final Dist regions;
  final Dist colors;
  final Dist types;
  final Dist containers;
  final Dist segments;
  final Dist priorities;
  final Dist shipModes;

  private static volatile Dists instance;

  private Dists(List<String> lines) {
    nations = read(lines, "nations");
    regions = read(lines, "regions");
    colors = read(lines, "colors");
    types = read(lines, "p_types");
    containers = read(lines, "p_cntr");
    segments = read(lines, "msegmnt");
    priorities = read(lines, "o_oprio");
    shipModes = read(lines, "smode");
  }

  /** The shared, immutable distributions (loaded once). */
  static Dists get() {
    Dists d = instance;
    if (d == null) {
      synchronized (Dists.class) {
        d = instance;
        if (d == null) {
          d = new Dists(load());
          instance = d;
        }
      }
    }
    return d;
  }

  private static List<String> load() {
    try (InputStream in = Dists.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("classpath resource " + RESOURCE + " not found");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
      List<String> lines = new ArrayList<>();
      String line;
      while ((line = r.readLine()) != null) {
        lines.add(line);
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** Reads one named distribution following the rules of 3.1. */
  static Dist read(List<String> lines, String name) {
    List<String> names = new ArrayList<>();
    List<Long> weights = new ArrayList<>();
    boolean inside = false;
    boolean found = false;
    for (String raw : lines) {
      String line = raw;
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      if (line.isBlank()) {
        continue;
      }
      if (!inside) {
        String[] tok = line.trim().split("\\s+");
        if (tok.length >= 2 && tok[0].equalsIgnoreCase("BEGIN") && tok[1].equalsIgnoreCase(name)) {
          inside = true;
          found = true;
        }
        continue;
      }
      if (line.length() >= 3 && line.substring(0, 3).equalsIgnoreCase("END")) {
        break;
      }
      int bar = line.indexOf('|');
      if (bar < 0) {
        continue;
      }
      String text = line.substring(0, bar);
      long weight;
      try {
        weight = Long.parseLong(line.substring(bar + 1).trim());
      } catch (NumberFormatException e) {
        continue;
      }
      if (text.toLowerCase(Locale.ROOT).equals("count")) {
        continue;
      }
      names.add(text);
      weights.add(weight);
    }
    if (!found || names.isEmpty()) {
      throw new IllegalStateException("distribution " + name + " not found in " + RESOURCE);
    }
    return new Dist(names, weights);
  }
}
