package dev.wg1bench.script;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parser behind {@link Script#parse}: splits a script's text into SQL commands and
 * meta-commands as pgbench does, and checks the blocks they open ({@code \if}, pipelines) as
 * pgbench checks them before running. The SQL commands' variables are found by {@link
 * SqlVariables}, the arguments of {@code \setrandom} and {@code \sleep} read by {@link
 * MetaArguments}.
 *
 * <p>The scan keeps its position in fields so each kind of text (a comment, a meta-command, a
 * quoted string, an SQL character) is one method.
 */
final class ScriptParser {
  private final String src;
  private final String text;
  private final Map<String, String> directives = new LinkedHashMap<>();
  private final List<ParsedCommand> commands = new ArrayList<>();

  /** Lines of the open \\if blocks, innermost last. */
  private final ArrayList<Integer> ifLines = new ArrayList<>();

  /** Line of each open block's \\else, 0 before it. */
  private final ArrayList<Integer> elseLines = new ArrayList<>();

  /** Line of the open \\startpipeline, 0 outside a pipeline. */
  private int pipelineLine;

  // the scan's position: the character, its line, the SQL command being read (-1 when none)
  private int i;
  private int line = 1;
  private int cmdStart = -1;
  private int cmdLine;

  /** Parentheses open in the current SQL command: a semicolon inside them does not end it. */
  private int depth;

  /** Whether the line holds anything before a comment: only a whole-line comment is a directive. */
  private boolean lineHasContent;

  ScriptParser(String src, String text) {
    this.src = src;
    // \r\n and lone \r count as one line break
    this.text = text.replace("\r\n", "\n").replace('\r', '\n');
  }

  private ScriptException error(int line, String msg) {
    return new ScriptException(src, line, msg);
  }

  Script run() throws ScriptException {
    refuseNul();
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      char d = i + 1 < n ? text.charAt(i + 1) : '\0';
      if (c == '\n') {
        line++;
        i++;
        lineHasContent = false;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && d == '-') {
        lineComment();
      } else if (c == '\\' && d != ';') {
        metaCommandHere();
      } else {
        sqlCharacter(c, d);
      }
    }
    if (cmdStart >= 0) {
      emitSql(text.substring(cmdStart), cmdLine);
    }
    checkClosed();
    if (commands.isEmpty()) {
      // as pgbench: a script with nothing to run would measure empty ops
      throw error(line, "empty command list for script");
    }
    return new Script(src, directives, commands);
  }

  /**
   * A NUL character refused with its line: no query can hold one (the server answers "invalid
   * message format", 08P01, to every op that sends it), and pgbench, reading the file as a C
   * string, silently ignores everything from it on.
   */
  private void refuseNul() throws ScriptException {
    int at = text.indexOf('\0');
    if (at < 0) {
      return;
    }
    int lineStart = text.lastIndexOf('\n', at) + 1;
    throw error(
        1 + Lexer.countLines(text, 0, at),
        "a NUL character (byte 0x00) at column "
            + (at - lineStart + 1)
            + ": a script is text, and no query can hold one");
  }

  /** A {@code --} comment to the end of its line; on a line of its own, maybe a directive. */
  private void lineComment() {
    int end = text.indexOf('\n', i);
    end = end < 0 ? text.length() : end;
    if (!lineHasContent && cmdStart < 0) {
      directive(text.substring(i + 2, end));
    }
    i = end;
  }

  /** A backslash outside quotes ends the SQL command before it and starts a meta-command. */
  private void metaCommandHere() throws ScriptException {
    if (cmdStart >= 0) {
      emitSql(text.substring(cmdStart, i), cmdLine);
      cmdStart = -1;
      depth = 0;
    }
    Meta meta = meta(text, i + 1);
    metaCommand(meta.text(), line);
    line += meta.continuations();
    i = meta.end();
    lineHasContent = true;
  }

  /** A character of an SQL command: quoted text and block comments are skipped whole. */
  private void sqlCharacter(char c, char d) throws ScriptException {
    lineHasContent = true;
    if (c == '/' && d == '*') {
      int end = Lexer.skipBlockComment(text, i);
      if (end < 0) {
        throw error(line, "unterminated /* comment");
      }
      line += Lexer.countLines(text, i, end);
      i = end;
      return;
    }
    if (cmdStart < 0) {
      cmdStart = i;
      cmdLine = line;
    }
    if (c == '\'' || c == '"' || c == '$') {
      int end = quotedEnd(text, i, line);
      if (end >= 0) {
        line += Lexer.countLines(text, i, end);
        i = end;
        return;
      }
    } else if (c == '\\') {
      i += 2; // "\;": a semicolon that does not end the command
      return;
    } else if (c == '(') {
      depth++;
    } else if (c == ')') {
      depth = Math.max(0, depth - 1);
    } else if (c == ';' && depth == 0) {
      emitSql(text.substring(cmdStart, i), cmdLine);
      cmdStart = -1;
    }
    i++;
  }

  /**
   * A meta-command's text from {@code from} (after its backslash) to the end of its line, following
   * backslash-newline continuations, with where it ends and how many lines it joined.
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
              : c == '"' ? "unterminated quoted identifier" : "unterminated dollar-quoted string");
    }
    return end;
  }

  private void directive(String comment) {
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

  private void emitSql(String raw, int line) {
    String cmd = raw.strip();
    if (!cmd.isEmpty()) {
      commands.add(SqlVariables.split(cmd, line));
    }
  }

  private void metaCommand(String meta, int line) throws ScriptException {
    String body = meta.strip();
    int k = 0;
    while (k < body.length() && !Character.isWhitespace(body.charAt(k))) {
      k++;
    }
    String name = body.substring(0, k);
    String rest = body.substring(k).strip();
    String[] words = rest.isEmpty() ? new String[0] : rest.split("\\s+");
    MetaArguments args = new MetaArguments(src, line);
    switch (name.toLowerCase(Locale.ROOT)) {
      case "set" -> set(rest, words, args, line);
      case "setrandom" -> commands.add(args.setRandom(words));
      case "sleep" -> commands.add(args.sleep(words));
      case "gset", "aset" -> store(name.toLowerCase(Locale.ROOT), words, args, line);
      case "if", "elif" -> ifOrElif(name, rest, line);
      case "else", "endif" -> elseOrEndif(name, words, line);
      case "startpipeline", "syncpipeline", "endpipeline" -> {
        if (words.length > 0) {
          throw error(line, "too many arguments in command \"\\" + name + "\"");
        }
        pipeline(name.toLowerCase(Locale.ROOT), line);
      }
      case "shell" -> {
        if (words.length == 0) {
          throw error(line, "missing command in command \"\\shell\"");
        }
        commands.add(new ParsedCommand.Shell(line, null, List.of(words)));
      }
      case "setshell" -> {
        if (words.length < 2) {
          throw error(line, "missing argument in command \"\\setshell\"");
        }
        args.checkVarName(words[0]);
        commands.add(
            new ParsedCommand.Shell(line, words[0], List.of(words).subList(1, words.length)));
      }
      default -> throw error(line, "unknown meta-command \"\\" + name + "\"");
    }
  }

  private void set(String rest, String[] words, MetaArguments args, int line)
      throws ScriptException {
    if (words.length < 2) {
      throw error(line, "missing argument in command \"\\set\"");
    }
    String var = words[0];
    args.checkVarName(var);
    String expr = rest.substring(var.length()).strip();
    commands.add(new ParsedCommand.Set(line, var, ExprParser.parse(expr, src, line)));
  }

  private void ifOrElif(String name, String rest, int line) throws ScriptException {
    if (rest.isEmpty()) {
      throw error(line, "missing argument in command \"\\" + name + "\"");
    }
    ParsedCommand.Cond.Kind kind =
        name.equalsIgnoreCase("if") ? ParsedCommand.Cond.Kind.IF : ParsedCommand.Cond.Kind.ELIF;
    conditional(kind, line);
    commands.add(new ParsedCommand.Cond(line, kind, ExprParser.parse(rest, src, line)));
  }

  private void elseOrEndif(String name, String[] words, int line) throws ScriptException {
    if (words.length > 0) {
      throw error(line, "too many arguments in command \"\\" + name + "\"");
    }
    ParsedCommand.Cond.Kind kind =
        name.equalsIgnoreCase("else")
            ? ParsedCommand.Cond.Kind.ELSE
            : ParsedCommand.Cond.Kind.ENDIF;
    conditional(kind, line);
    commands.add(new ParsedCommand.Cond(line, kind, null));
  }

  /** \gset / \aset end the SQL command before them, replacing its semicolon. */
  private void store(String name, String[] words, MetaArguments args, int line)
      throws ScriptException {
    if (words.length > 1) {
      throw error(line, "too many arguments in command \"\\" + name + "\"");
    }
    ParsedCommand prev = commands.isEmpty() ? null : commands.get(commands.size() - 1);
    if (!(prev instanceof ParsedCommand.Sql sql) || sql.storePrefix != null) {
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
      args.checkVarName(words[0]);
    }
    sql.storePrefix = words.length == 0 ? "" : words[0];
    sql.aset = name.equals("aset");
  }

  /** pgbench's CheckConditional, with the line of the offending command. */
  private void conditional(ParsedCommand.Cond.Kind kind, int line) throws ScriptException {
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
    if (kind == ParsedCommand.Cond.Kind.IF) {
      ifLines.add(line);
      elseLines.add(0);
      return;
    }
    if (ifLines.isEmpty()) {
      throw error(line, cmd + " without matching \\if");
    }
    int top = ifLines.size() - 1;
    if (kind == ParsedCommand.Cond.Kind.ENDIF) {
      ifLines.remove(top);
      elseLines.remove(top);
    } else if (elseLines.get(top) > 0) {
      throw error(line, cmd + " after \\else (line " + elseLines.get(top) + ")");
    } else if (kind == ParsedCommand.Cond.Kind.ELSE) {
      elseLines.set(top, line);
    }
  }

  private void pipeline(String name, int line) throws ScriptException {
    if (name.equals("startpipeline")) {
      if (pipelineLine > 0) {
        throw error(
            line, "\\startpipeline: already in a pipeline (started at line " + pipelineLine + ")");
      }
      pipelineLine = line;
      commands.add(new ParsedCommand.Pipeline(line, ParsedCommand.Pipeline.Kind.START));
      return;
    }
    if (pipelineLine == 0) {
      throw error(line, "\\" + name + " without matching \\startpipeline");
    }
    boolean end = name.equals("endpipeline");
    if (end) {
      pipelineLine = 0;
    }
    commands.add(
        new ParsedCommand.Pipeline(
            line, end ? ParsedCommand.Pipeline.Kind.END : ParsedCommand.Pipeline.Kind.SYNC));
  }

  /** What is still open at the end of the script. */
  private void checkClosed() throws ScriptException {
    if (pipelineLine > 0) {
      throw error(pipelineLine, "\\startpipeline without matching \\endpipeline");
    }
    if (!ifLines.isEmpty()) {
      throw error(ifLines.get(ifLines.size() - 1), "\\if without matching \\endif");
    }
  }
}
