package dev.wg1bench.script;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed pgbench custom script ({@code pgbench -f}). {@link #parse} splits the text into SQL
 * commands and meta-commands and parses expressions (see {@link ScriptParser}); {@link #compile}
 * resolves variables to slots and checks that every variable is defined before use.
 *
 * <p>Supported meta-commands: {@code \set}, {@code \setrandom} (legacy 9.x form), {@code \sleep},
 * {@code \gset}, {@code \aset}, {@code \if}/{@code \elif}/{@code \else}/{@code \endif} and {@code
 * \startpipeline}/{@code \syncpipeline}/{@code \endpipeline}, checked as pgbench checks them before
 * running (unbalanced blocks, {@code \gset} inside a pipeline). As in pgbench, a backslash outside
 * quotes/comments ends the current SQL command and starts a meta-command running to the end of the
 * line (a trailing backslash continues it), so {@code SELECT ... \gset} works on one line; {@code
 * \;} is a semicolon that does not end the command.
 */
public final class Script {
  private final String sourceName;
  private final Map<String, String> directives;
  private final List<ParsedCommand> commands;

  Script(String sourceName, Map<String, String> directives, List<ParsedCommand> commands) {
    this.sourceName = sourceName;
    this.directives = Collections.unmodifiableMap(directives);
    this.commands = commands;
  }

  public String sourceName() {
    return sourceName;
  }

  /**
   * Header directives: whole-line comments {@code -- @key value} between commands, as key to value
   * in order of first appearance (a repeated key keeps its position, last value wins).
   */
  public Map<String, String> directives() {
    return directives;
  }

  // ---- parsing ----

  /**
   * Parses a script. Syntax errors (unknown meta-command, bad expression, wrong argument count,
   * unterminated quote or comment) throw with {@code sourceName:line}.
   */
  public static Script parse(String sourceName, String text) throws ScriptException {
    return new ScriptParser(sourceName, text).run();
  }

  /**
   * Static check and compilation against the variables existing before the script runs (scale,
   * client_id, nclients, default_seed, random_seed, -D defines...); see {@link ScriptCompiler}.
   */
  public CompiledScript compile(Set<String> predefined) throws ScriptException {
    return new ScriptCompiler(sourceName, directives, commands).compile(predefined);
  }
}
