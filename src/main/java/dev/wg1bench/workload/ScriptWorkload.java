package dev.wg1bench.workload;

import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.script.BranchStep;
import dev.wg1bench.script.CompiledScript;
import dev.wg1bench.script.JumpStep;
import dev.wg1bench.script.PipelineStep;
import dev.wg1bench.script.Script;
import dev.wg1bench.script.ScriptException;
import dev.wg1bench.script.Step;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A workload made of pgbench-style scripts in a weighted mix, as pgbench {@code -f FILE@WEIGHT}.
 * Its metadata comes from {@code -- @key value} comment lines at the top of its first script:
 * {@code @description}, {@code @seed}, {@code @isolation}, {@code @rows-per-op}, {@code @tables},
 * {@code @check} (see {@link DataCheck}).
 */
public final class ScriptWorkload implements Workload {
  private final String name;
  private final List<ScriptSource> sources;
  private final List<Script> scripts;
  private final Map<String, String> meta;
  private final DataCheck dataCheck;

  public ScriptWorkload(String name, List<ScriptSource> sources) {
    this.name = name;
    this.sources = List.copyOf(sources);
    this.scripts = new ArrayList<>();
    for (ScriptSource s : sources) {
      try {
        scripts.add(Script.parse(s.name(), s.text()));
      } catch (ScriptException e) {
        throw new UsageException(e.getMessage(), e);
      }
    }
    this.meta = scripts.get(0).directives();
    try {
      this.dataCheck =
          meta.containsKey("check")
              ? DataCheck.parse(meta.get("check"), rowsInsertedPerOp())
              : DataCheck.NONE;
    } catch (IllegalArgumentException e) {
      throw new UsageException(sources.get(0).name() + ": " + e.getMessage());
    }
  }

  @Override
  public DataCheck dataCheck() {
    return dataCheck;
  }

  /** A built-in workload: {@code workloads/NAME.sql} on the classpath (the repo's workloads/). */
  public static ScriptWorkload builtin(String name) {
    return builtin(name, name);
  }

  /**
   * A built-in workload whose file is {@code workloads/FILE.sql}, FILE possibly in a subfolder
   * (e.g. {@code ssb/q1.1} for workload {@code ssb_q1.1}).
   */
  public static ScriptWorkload builtin(String name, String file) {
    return new ScriptWorkload(
        name,
        List.of(new ScriptSource(file + ".sql", resource(file), 1, PGBENCH_TITLES.get(name))));
  }

  /** pgbench's names of its built-in scripts, which these workloads are (pgbench -b). */
  private static final Map<String, String> PGBENCH_TITLES =
      Map.of(
          "tpcb", "<builtin: TPC-B (sort of)>",
          "simple_update", "<builtin: simple update>",
          "select_only", "<builtin: select only>");

  /**
   * A built-in workload whose one op runs several built-in scripts in order: the header of the
   * first file's directives is replaced by {@code header}, and the files' SQL follows in order, so
   * the queries exist once, in their own files.
   */
  public static ScriptWorkload sequence(String name, String header, List<String> files) {
    StringBuilder text = new StringBuilder(header.strip()).append('\n');
    for (String f : files) {
      text.append("-- ").append(f).append('\n');
      for (String line : resource(f).split("\n", -1)) {
        if (!line.startsWith("-- @")) {
          text.append(line).append('\n');
        }
      }
    }
    return new ScriptWorkload(name, List.of(new ScriptSource(name + ".sql", text.toString(), 1)));
  }

  static String resource(String name) {
    String path = "/workloads/" + name + ".sql";
    try (InputStream in = ScriptWorkload.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<ScriptSource> sources() {
    return sources;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return meta.getOrDefault("description", "custom script " + sources.get(0).name());
  }

  @Override
  public String seed() {
    return meta.getOrDefault("seed", "custom");
  }

  @Override
  public Schema schema() {
    String tables = meta.get("tables");
    if ("pgbench".equals(tables)) {
      return Schema.PGBENCH;
    }
    return "ssb".equals(tables) ? Schema.SSB : Schema.NONE;
  }

  @Override
  public Isolation defaultIsolation() {
    String i = meta.get("isolation");
    return i == null ? null : Isolation.parse(i);
  }

  @Override
  public boolean readOnly() {
    return meta.containsKey("read-only");
  }

  @Override
  public int rowsInsertedPerOp() {
    return Integer.parseInt(meta.getOrDefault("rows-per-op", "0"));
  }

  @Override
  public void check(Set<String> predefined) {
    compile(predefined);
  }

  private List<CompiledScript> compile(Set<String> predefined) {
    List<CompiledScript> out = new ArrayList<>();
    for (Script s : scripts) {
      try {
        out.add(s.compile(predefined));
      } catch (ScriptException e) {
        throw new UsageException(e.getMessage(), e);
      }
    }
    return out;
  }

  @Override
  public ClientSession open(ClientContext context) {
    Map<String, Object> vars = context.variables();
    Set<String> predefined = new HashSet<>(vars.keySet());
    List<CompiledScript> compiled = compile(predefined);
    int[] weights = sources.stream().mapToInt(ScriptSource::weight).toArray();
    return new ScriptSession(compiled, weights, vars, context, outline(compiled));
  }

  private static ScriptOutline.Command command(String[] lines, int line) {
    String text = line >= 1 && line <= lines.length ? lines[line - 1].strip() : "";
    return new ScriptOutline.Command(line, text);
  }

  /** Each script's commands named by their first line, as pgbench -r prints them. */
  private List<ScriptOutline> outline(List<CompiledScript> compiled) {
    List<ScriptOutline> out = new ArrayList<>();
    for (int i = 0; i < compiled.size(); i++) {
      String[] lines = sources.get(i).text().split("\\R", -1);
      List<ScriptOutline.Command> commands = new ArrayList<>();
      List<Step> steps = compiled.get(i).steps();
      int[] commandOf = new int[steps.size()];
      for (int k = 0; k < steps.size(); k++) {
        Step step = steps.get(k);
        int line = step.line();
        if (step instanceof BranchStep
            && k > 0
            && steps.get(k - 1) instanceof JumpStep
            && steps.get(k - 1).line() == line) {
          // an \elif: the jump ending the branch before it and its test are one command
          commandOf[k] = commands.size() - 1;
          continue;
        }
        commandOf[k] = commands.size();
        if (step instanceof PipelineStep p) {
          // as pgbench lists a pipeline: its \startpipeline, each command in it, and the
          // \syncpipeline or \endpipeline closing it (see ScriptSession#pipeline)
          if (p.opens()) {
            commands.add(command(lines, line));
          }
          for (Step b : p.body()) {
            commands.add(command(lines, b.line()));
          }
          commands.add(command(lines, p.closeLine()));
          continue;
        }
        commands.add(command(lines, line));
      }
      out.add(
          new ScriptOutline(sources.get(i).label(), sources.get(i).weight(), commands, commandOf));
    }
    return out;
  }
}
