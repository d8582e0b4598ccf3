package dev.wg1bench.advise;

import dev.wg1bench.plan.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A piece of tuning advice from the seeds, as data: the claim, where it comes from, and the two
 * runs that test it, written as wg1bench options ({@code common} goes to both arms).
 *
 * @param expect higher (the treatment should raise the metric) or lower
 * @param metric what is compared: tps (default), or p50 / p99 latency (then a claim of faster
 *     responses expects lower)
 * @param java the Java feature release the arms need at least (virtual threads: 21), 0 for any
 */
public record Advice(
    String name,
    String claim,
    String seed,
    String expect,
    String metric,
    String common,
    String baseline,
    String treatment,
    int java) {

  /**
   * A claim built by name, its other parts at their defaults until set: no seed, expect higher,
   * metric tps, no common options, any Java. The arms are required ({@link Builder#arms}).
   */
  public static Builder claim(String name, String claim) {
    return new Builder(name, claim);
  }

  /** An {@link Advice} by name, so that no call reads as a row of "" and 0. */
  public static final class Builder {
    private final String name;
    private final String claim;
    private String seed = "";
    private String expect = "higher";
    private String metric = "tps";
    private String common = "";
    private String baseline;
    private String treatment;
    private int java;

    private Builder(String name, String claim) {
      this.name = name;
      this.claim = claim;
    }

    /** Where the claim comes from (default: none). */
    public Builder seed(String s) {
      this.seed = s;
      return this;
    }

    /** higher (the treatment should raise the metric, the default) or lower. */
    public Builder expect(String e) {
      this.expect = e;
      return this;
    }

    /** tps (the default), p50 or p99. */
    public Builder metric(String m) {
      this.metric = m;
      return this;
    }

    /** Options both arms run with (default: none). */
    public Builder common(String c) {
      this.common = c;
      return this;
    }

    /** The two arms' own options. */
    public Builder arms(String baselineOptions, String treatmentOptions) {
      this.baseline = baselineOptions;
      this.treatment = treatmentOptions;
      return this;
    }

    /** The Java feature release both arms need at least (default 0: any). */
    public Builder java(int release) {
      this.java = release;
      return this;
    }

    /** The claim; its arms must have been given. */
    public Advice build() {
      if (baseline == null || treatment == null) {
        throw new IllegalStateException("claim " + name + " has no arms: call arms(...)");
      }
      return new Advice(name, claim, seed, expect, metric, common, baseline, treatment, java);
    }
  }

  /** Whether an arm goes through a container (PgBouncer in front, a container target). */
  public boolean needsContainers() {
    String all = " " + common + " " + baseline + " " + treatment + " ";
    return all.contains(" --via ") || all.contains("container:");
  }

  /** Whether this runtime can run both arms. */
  public boolean runsHere() {
    return Runtime.version().feature() >= java;
  }

  /** The advice shipped in config/advice/ (inside the jar). */
  public static List<Advice> shipped() {
    List<Advice> out = new ArrayList<>();
    try (InputStream index = Advice.class.getResourceAsStream("/config/advice/INDEX")) {
      if (index == null) {
        throw new IllegalStateException("config/advice/INDEX is missing from the build");
      }
      for (String name : new String(index.readAllBytes(), StandardCharsets.UTF_8).split("\\s+")) {
        if (name.isBlank()) {
          continue;
        }
        try (InputStream in =
            Advice.class.getResourceAsStream("/config/advice/" + name + ".properties")) {
          out.add(
              parse(name, new InputStreamReader(in, StandardCharsets.UTF_8), name + ".properties"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * The A/A check: two arms that differ only in the session's application_name, which no workload
   * reads. A calibrated method finds them equivalent or inconclusive, and "confirms" or
   * "contradicts" in about 5% of runs.
   */
  public static Advice aa(String common) {
    return claim("aa", "A/A: two identical arms (only application_name differs) show no difference")
        .seed("wg1bench calibration")
        .common(common)
        .arms(
            "--set application_name=wg1bench-aa-baseline",
            "--set application_name=wg1bench-aa-treatment")
        .build();
  }

  /** Every NAME.properties in a directory, by name. */
  public static List<Advice> fromDirectory(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new UsageException("--advice-dir " + dir + ": no such directory");
    }
    List<Advice> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".properties")).sorted().toList()) {
        String name = f.getFileName().toString().replaceFirst("\\.properties$", "");
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
          out.add(parse(name, r, f.toString()));
        }
      }
    } catch (IOException e) {
      throw new UsageException("--advice-dir " + dir + ": " + e.getMessage());
    }
    return out;
  }

  static Advice parse(String name, Reader r, String where) throws IOException {
    Properties p = new Properties();
    p.load(r);
    for (String k : List.of("claim", "seed", "baseline", "treatment")) {
      if (p.getProperty(k) == null) {
        throw new UsageException(where + ": missing '" + k + "'");
      }
    }
    String expect = p.getProperty("expect", "higher").trim().toLowerCase(Locale.ROOT);
    if (!expect.equals("higher") && !expect.equals("lower")) {
      throw new UsageException(where + ": expect must be higher or lower, got '" + expect + "'");
    }
    String metric = p.getProperty("metric", "tps").trim().toLowerCase(Locale.ROOT);
    if (!List.of("tps", "p50", "p99").contains(metric)) {
      throw new UsageException(where + ": metric must be tps, p50 or p99, got '" + metric + "'");
    }
    return claim(name, p.getProperty("claim").trim())
        .seed(p.getProperty("seed").trim())
        .expect(expect)
        .metric(metric)
        .common(p.getProperty("common", "").trim())
        .arms(p.getProperty("baseline").trim(), p.getProperty("treatment").trim())
        .java(java(p.getProperty("java", "0"), where))
        .build();
  }

  private static int java(String text, String where) {
    try {
      int v = Integer.parseInt(text.trim());
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        where + ": java must be a Java feature release such as 21, got '" + text + "'");
  }
}
