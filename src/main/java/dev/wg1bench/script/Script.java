package dev.wg1bench.script;

import dev.wg1bench.script.Ast.Call;
import dev.wg1bench.script.Ast.Fn;
import dev.wg1bench.script.Ast.Lit;
import dev.wg1bench.script.Ast.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A parsed pgbench custom script ({@code pgbench -f}). {@link #parse} splits the text into SQL
 * commands and meta-commands and parses expressions; {@link #compile} resolves variables to slots
 * and checks that every variable is defined before use.
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
  private final List<Raw> commands;

  private Script(String sourceName, Map<String, String> directives, List<Raw> commands) {
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
    return new Parser(sourceName, text).run();
  }

  private static final class Parser {
    final String src;
    final String text;
    final Map<String, String> directives = new LinkedHashMap<>();
    final List<Raw> commands = new ArrayList<>();

    Parser(String src, String text) {
      this.src = src;
      // \r\n and lone \r count as one line break
      this.text = text.replace("\r\n", "\n").replace('\r', '\n');
    }

    ScriptException error(int line, String msg) {
      return new ScriptException(src, line, msg);
    }

    Script run() throws ScriptException {
      String s = text;
      int n = s.length();
      int i = 0;
      int line = 1;
      int cmdStart = -1;
      int cmdLine = 0;
      int depth = 0;
      boolean lineHasContent = false;
      while (i < n) {
        char c = s.charAt(i);
        if (c == '\n') {
          line++;
          i++;
          lineHasContent = false;
          continue;
        }
        if (Character.isWhitespace(c)) {
          i++;
          continue;
        }
        char d = i + 1 < n ? s.charAt(i + 1) : '\0';
        if (c == '-' && d == '-') {
          int end = s.indexOf('\n', i);
          end = end < 0 ? n : end;
          if (!lineHasContent && cmdStart < 0) {
            directive(s.substring(i + 2, end));
          }
          i = end;
          continue;
        }
        if (c == '\\' && d != ';') {
          if (cmdStart >= 0) {
            emitSql(s.substring(cmdStart, i), cmdLine);
            cmdStart = -1;
            depth = 0;
          }
          Meta meta = meta(s, i + 1);
          metaCommand(meta.text(), line);
          line += meta.continuations();
          i = meta.end();
          lineHasContent = true;
          continue;
        }
        lineHasContent = true;
        if (c == '/' && d == '*') {
          int end = Lexer.skipBlockComment(s, i);
          if (end < 0) {
            throw error(line, "unterminated /* comment");
          }
          line += Lexer.countLines(s, i, end);
          i = end;
          continue;
        }
        if (cmdStart < 0) {
          cmdStart = i;
          cmdLine = line;
        }
        if (c == '\'' || c == '"' || c == '$') {
          int end = quotedEnd(s, i, line);
          if (end >= 0) {
            line += Lexer.countLines(s, i, end);
            i = end;
            continue;
          }
        } else if (c == '\\') {
          i += 2; // "\;": a semicolon that does not end the command
          continue;
        } else if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth = Math.max(0, depth - 1);
        } else if (c == ';' && depth == 0) {
          emitSql(s.substring(cmdStart, i), cmdLine);
          cmdStart = -1;
        }
        i++;
      }
      if (cmdStart >= 0) {
        emitSql(s.substring(cmdStart), cmdLine);
      }
      checkClosed();
      if (commands.isEmpty()) {
        // as pgbench: a script with nothing to run would measure empty ops
        throw error(line, "empty command list for script");
      }
      return new Script(src, directives, commands);
    }

    /**
     * A meta-command's text from {@code from} (after its backslash) to the end of its line,
     * following backslash-newline continuations, with where it ends and how many lines it joined.
     */
    private record Meta(String text, int end, int continuations) {}

    private static Meta meta(String s, int from) {
      int n = s.length();
      StringBuilder meta = new StringBuilder();
      int continuations = 0;
      int j = from;
      while (true) {
        int end = s.indexOf('\n', j);
        end = end < 0 ? n : end;
        String part = s.substring(j, end);
        if (part.endsWith("\\") && end < n) {
          meta.append(part, 0, part.length() - 1).append(' ');
          j = end + 1;
          continuations++;
          continue;
        }
        meta.append(part);
        return new Meta(meta.toString(), end, continuations);
      }
    }

    /** The end of the quoted text starting at {@code i} (see {@link Lexer#skipQuoted}). */
    private int quotedEnd(String s, int i, int line) throws ScriptException {
      int end = Lexer.skipQuoted(s, i);
      if (end == -2) {
        char c = s.charAt(i);
        throw error(
            line,
            c == '\''
                ? "unterminated quoted string"
                : c == '"'
                    ? "unterminated quoted identifier"
                    : "unterminated dollar-quoted string");
      }
      return end;
    }

    void directive(String comment) {
      String c = comment.strip();
      if (c.length() < 2 || c.charAt(0) != '@') {
        return;
      }
      int k = 1;
      while (k < c.length() && !Character.isWhitespace(c.charAt(k))) {
        k++;
      }
      String key = c.substring(1, k);
      if (!key.isEmpty()) {
        directives.put(key, c.substring(k).strip());
      }
    }

    void emitSql(String raw, int line) throws ScriptException {
      String cmd = raw.strip();
      if (cmd.isEmpty()) {
        return;
      }
      List<String> pieces = new ArrayList<>();
      List<String> vars = new ArrayList<>();
      StringBuilder cur = new StringBuilder();
      List<String> textPieces = new ArrayList<>();
      StringBuilder txt = new StringBuilder();
      int n = cmd.length();
      int i = 0;
      while (i < n) {
        char c = cmd.charAt(i);
        char d = i + 1 < n ? cmd.charAt(i + 1) : '\0';
        int end = -1;
        if (c == '-' && d == '-') {
          end = cmd.indexOf('\n', i);
          end = end < 0 ? n : end;
        } else if (c == '/' && d == '*') {
          end = Lexer.skipBlockComment(cmd, i);
        } else if (c == '\'' || c == '"' || c == '$') {
          end = Lexer.skipQuoted(cmd, i);
        }
        if (end >= 0) {
          // comments and quoted text are copied verbatim: no variables in there
          cur.append(cmd, i, end);
          txt.append(cmd, i, end);
          i = end;
          continue;
        }
        if (c == ':') {
          if (d == ':') {
            // a "::" cast (or longer run of colons) is never a variable
            int j = i;
            while (j < n && cmd.charAt(j) == ':') {
              j++;
            }
            cur.append(cmd, i, j);
            txt.append(cmd, i, j);
            i = j;
            continue;
          }
          int j = i + 1;
          while (j < n && ExprParser.isNameChar(cmd.charAt(j))) {
            j++;
          }
          if (j > i + 1) {
            pieces.add(cur.toString());
            cur.setLength(0);
            textPieces.add(txt.toString());
            txt.setLength(0);
            vars.add(cmd.substring(i + 1, j));
            i = j;
            continue;
          }
        } else if (c == '?') {
          cur.append("??"); // pgjdbc's escape for a literal question mark
          txt.append('?');
          i++;
          continue;
        } else if (c == '\\' && d == ';') {
          cur.append(';');
          txt.append(';');
          i += 2;
          continue;
        }
        cur.append(c);
        txt.append(c);
        i++;
      }
      pieces.add(cur.toString());
      textPieces.add(txt.toString());
      commands.add(new Raw.Sql(line, cmd, pieces, textPieces, vars, Lexer.txOf(cmd)));
    }

    void metaCommand(String meta, int line) throws ScriptException {
      String body = meta.strip();
      int k = 0;
      while (k < body.length() && !Character.isWhitespace(body.charAt(k))) {
        k++;
      }
      String name = body.substring(0, k);
      String rest = body.substring(k).strip();
      String[] words = rest.isEmpty() ? new String[0] : rest.split("\\s+");
      switch (name.toLowerCase(Locale.ROOT)) {
        case "set":
          {
            if (words.length < 2) {
              throw error(line, "missing argument in command \"\\set\"");
            }
            String var = words[0];
            checkVarName(var, line);
            String expr = rest.substring(var.length()).strip();
            commands.add(new Raw.Set(line, var, ExprParser.parse(expr, src, line)));
            return;
          }
        case "setrandom":
          setRandom(words, line);
          return;
        case "sleep":
          sleep(words, line);
          return;
        case "gset":
        case "aset":
          store(name.toLowerCase(Locale.ROOT), words, line);
          return;
        case "if":
        case "elif":
          {
            if (rest.isEmpty()) {
              throw error(line, "missing argument in command \"\\" + name + "\"");
            }
            Raw.Cond.Kind kind =
                name.equalsIgnoreCase("if") ? Raw.Cond.Kind.IF : Raw.Cond.Kind.ELIF;
            conditional(kind, line);
            commands.add(new Raw.Cond(line, kind, ExprParser.parse(rest, src, line)));
            return;
          }
        case "else":
        case "endif":
          {
            if (words.length > 0) {
              throw error(line, "too many arguments in command \"\\" + name + "\"");
            }
            Raw.Cond.Kind kind =
                name.equalsIgnoreCase("else") ? Raw.Cond.Kind.ELSE : Raw.Cond.Kind.ENDIF;
            conditional(kind, line);
            commands.add(new Raw.Cond(line, kind, null));
            return;
          }
        case "startpipeline":
        case "syncpipeline":
        case "endpipeline":
          {
            if (words.length > 0) {
              throw error(line, "too many arguments in command \"\\" + name + "\"");
            }
            pipeline(name.toLowerCase(Locale.ROOT), line);
            return;
          }
        case "shell":
          if (words.length == 0) {
            throw error(line, "missing command in command \"\\shell\"");
          }
          commands.add(new Raw.Shell(line, null, List.of(words)));
          return;
        case "setshell":
          if (words.length < 2) {
            throw error(line, "missing argument in command \"\\setshell\"");
          }
          checkVarName(words[0], line);
          commands.add(new Raw.Shell(line, words[0], List.of(words).subList(1, words.length)));
          return;
        default:
          throw error(line, "unknown meta-command \"\\" + name + "\"");
      }
    }

    /** \gset / \aset end the SQL command before them, replacing its semicolon. */
    void store(String name, String[] words, int line) throws ScriptException {
      if (words.length > 1) {
        throw error(line, "too many arguments in command \"\\" + name + "\"");
      }
      Raw prev = commands.isEmpty() ? null : commands.get(commands.size() - 1);
      if (!(prev instanceof Raw.Sql sql) || sql.storePrefix != null) {
        throw error(line, "\\" + name + " must follow an SQL command");
      }
      if (pipelineLine > 0) {
        // as pgbench: the results arrive only when the pipeline ends
        throw error(
            line,
            "\\"
                + name
                + " cannot be used in a pipeline (the pipeline started at line "
                + pipelineLine
                + " sends its statements before any result is read)");
      }
      if (words.length == 1) {
        checkVarName(words[0], line);
      }
      sql.storePrefix = words.length == 0 ? "" : words[0];
      sql.aset = name.equals("aset");
    }

    /** Lines of the open \\if blocks, innermost last. */
    final ArrayList<Integer> ifLines = new ArrayList<>();

    /** Line of each open block's \\else, 0 before it. */
    final ArrayList<Integer> elseLines = new ArrayList<>();

    /** Line of the open \\startpipeline, 0 outside a pipeline. */
    int pipelineLine;

    /** pgbench's CheckConditional, with the line of the offending command. */
    void conditional(Raw.Cond.Kind kind, int line) throws ScriptException {
      String cmd = "\\" + kind.name().toLowerCase(Locale.ROOT);
      if (pipelineLine > 0) {
        // a pipeline is sent as one batch, so its commands must run straight through
        throw error(
            line,
            cmd
                + " inside a pipeline is not supported by wg1bench (the pipeline started at line "
                + pipelineLine
                + " is sent as one batch)");
      }
      if (kind == Raw.Cond.Kind.IF) {
        ifLines.add(line);
        elseLines.add(0);
        return;
      }
      if (ifLines.isEmpty()) {
        throw error(line, cmd + " without matching \\if");
      }
      int top = ifLines.size() - 1;
      if (kind == Raw.Cond.Kind.ENDIF) {
        ifLines.remove(top);
        elseLines.remove(top);
      } else if (elseLines.get(top) > 0) {
        throw error(line, cmd + " after \\else (line " + elseLines.get(top) + ")");
      } else if (kind == Raw.Cond.Kind.ELSE) {
        elseLines.set(top, line);
      }
    }

    void pipeline(String name, int line) throws ScriptException {
      if (name.equals("startpipeline")) {
        if (pipelineLine > 0) {
          throw error(
              line,
              "\\startpipeline: already in a pipeline (started at line " + pipelineLine + ")");
        }
        pipelineLine = line;
        commands.add(new Raw.Pipeline(line, Raw.Pipeline.Kind.START));
        return;
      }
      if (pipelineLine == 0) {
        throw error(line, "\\" + name + " without matching \\startpipeline");
      }
      boolean end = name.equals("endpipeline");
      if (end) {
        pipelineLine = 0;
      }
      commands.add(new Raw.Pipeline(line, end ? Raw.Pipeline.Kind.END : Raw.Pipeline.Kind.SYNC));
    }

    /** What is still open at the end of the script. */
    void checkClosed() throws ScriptException {
      if (pipelineLine > 0) {
        throw error(pipelineLine, "\\startpipeline without matching \\endpipeline");
      }
      if (!ifLines.isEmpty()) {
        throw error(ifLines.get(ifLines.size() - 1), "\\if without matching \\endif");
      }
    }

    void checkVarName(String var, int line) throws ScriptException {
      boolean ok = !var.isEmpty();
      for (int i = 0; ok && i < var.length(); i++) {
        ok = ExprParser.isNameChar(var.charAt(i));
      }
      if (!ok) {
        throw error(line, "invalid variable name: \"" + var + "\"");
      }
    }

    /** Legacy {@code \setrandom NAME MIN MAX [uniform | gaussian P | exponential P]}. */
    void setRandom(String[] w, int line) throws ScriptException {
      if (w.length < 3) {
        throw error(line, "missing argument in command \"\\setrandom\"");
      }
      checkVarName(w[0], line);
      Ast min = intArg(w[1], line);
      Ast max = intArg(w[2], line);
      Ast expr;
      String dist = w.length > 3 ? w[3].toLowerCase(Locale.ROOT) : "uniform";
      switch (dist) {
        case "uniform":
          if (w.length > 4) {
            throw error(line, "too many arguments in command \"\\setrandom\"");
          }
          expr = new Call(Fn.RANDOM, List.of(min, max));
          break;
        case "gaussian":
        case "exponential":
          if (w.length < 5) {
            throw error(line, "missing parameter for " + dist + " distribution in \"\\setrandom\"");
          }
          if (w.length > 5) {
            throw error(line, "too many arguments in command \"\\setrandom\"");
          }
          Ast p = doubleArg(w[4], line);
          expr =
              new Call(
                  dist.equals("gaussian") ? Fn.RANDOM_GAUSSIAN : Fn.RANDOM_EXPONENTIAL,
                  List.of(min, max, p));
          break;
        default:
          throw error(line, "invalid distribution \"" + w[3] + "\" in \"\\setrandom\"");
      }
      commands.add(new Raw.Set(line, w[0], expr));
    }

    Ast intArg(String w, int line) throws ScriptException {
      Ast v = varArg(w, line);
      if (v != null) {
        return v;
      }
      try {
        return new Lit(Long.parseLong(w));
      } catch (NumberFormatException e) {
        throw error(line, "invalid integer argument \"" + w + "\"");
      }
    }

    Ast doubleArg(String w, int line) throws ScriptException {
      Ast v = varArg(w, line);
      if (v != null) {
        return v;
      }
      try {
        double d = Double.parseDouble(w);
        if (Character.isLetter(w.charAt(w.length() - 1)) || Double.isInfinite(d)) {
          throw new NumberFormatException();
        }
        return new Lit(d);
      } catch (NumberFormatException e) {
        throw error(line, "invalid numeric argument \"" + w + "\"");
      }
    }

    Ast varArg(String w, int line) throws ScriptException {
      if (w.length() > 1 && w.charAt(0) == ':') {
        checkVarName(w.substring(1), line);
        return new Var(w.substring(1));
      }
      return null;
    }

    void sleep(String[] w, int line) throws ScriptException {
      if (w.length < 1) {
        throw error(line, "missing argument in command \"\\sleep\"");
      }
      if (w.length > 2) {
        throw error(line, "too many arguments in command \"\\sleep\"");
      }
      if (w.length == 1 && !w[0].startsWith(":")) {
        // as pgbench: a unit may be attached to the number ("\sleep 2ms")
        int k = w[0].startsWith("+") || w[0].startsWith("-") ? 1 : 0;
        int digits = k;
        while (k < w[0].length() && Character.isDigit(w[0].charAt(k))) {
          k++;
        }
        if (k > digits && k < w[0].length()) {
          w = new String[] {w[0].substring(0, k), w[0].substring(k)};
        }
      }
      Ast amount = varArg(w[0], line);
      if (amount == null) {
        try {
          amount = new Lit(Long.parseLong(w[0]));
        } catch (NumberFormatException e) {
          throw error(
              line, "invalid sleep time \"" + w[0] + "\", must be an integer or a :variable");
        }
      }
      long unit = 1_000_000L;
      if (w.length == 2) {
        switch (w[1].toLowerCase(Locale.ROOT)) {
          case "us":
            unit = 1L;
            break;
          case "ms":
            unit = 1_000L;
            break;
          case "s":
            unit = 1_000_000L;
            break;
          default:
            throw error(line, "unrecognized time unit \"" + w[1] + "\", must be us, ms or s");
        }
      }
      commands.add(new Raw.Sleep(line, amount, unit));
    }
  }

  /**
   * Static check and compilation against the variables existing before the script runs (scale,
   * client_id, nclients, default_seed, random_seed, -D defines...); see {@link ScriptCompiler}.
   */
  public CompiledScript compile(Set<String> predefined) throws ScriptException {
    return new ScriptCompiler(sourceName, directives, commands).compile(predefined);
  }
}
