package dev.wg1bench.script;

import dev.wg1bench.script.Ast.Call;
import dev.wg1bench.script.Ast.Fn;
import dev.wg1bench.script.Ast.Lit;
import dev.wg1bench.script.Ast.Var;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
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
 * {@code \gset}. As in pgbench, a backslash outside quotes/comments ends the current SQL command
 * and starts a meta-command running to the end of the line (a trailing backslash continues it), so
 * {@code SELECT ... \gset} works on one line; {@code \;} is a semicolon that does not end the
 * command.
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

  // ---- raw (parsed, unresolved) commands ----

  private abstract static class Raw {
    final int line;

    Raw(int line) {
      this.line = line;
    }
  }

  private static final class RawSql extends Raw {
    final String text;

    /** Literal SQL around variables: pieces.size() == vars.size() + 1. */
    final List<String> pieces;

    final List<String> vars;
    final TxControl tx;
    String gsetPrefix;

    RawSql(int line, String text, List<String> pieces, List<String> vars, TxControl tx) {
      super(line);
      this.text = text;
      this.pieces = pieces;
      this.vars = vars;
      this.tx = tx;
    }
  }

  private static final class RawSet extends Raw {
    final String name;
    final Ast expr;

    RawSet(int line, String name, Ast expr) {
      super(line);
      this.name = name;
      this.expr = expr;
    }
  }

  private static final class RawSleep extends Raw {
    final Ast amount;
    final long unitMicros;

    RawSleep(int line, Ast amount, long unitMicros) {
      super(line);
      this.amount = amount;
      this.unitMicros = unitMicros;
    }
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
          // gather the meta-command, following backslash-newline continuations
          StringBuilder meta = new StringBuilder();
          int metaLine = line;
          int j = i + 1;
          while (true) {
            int end = s.indexOf('\n', j);
            end = end < 0 ? n : end;
            String part = s.substring(j, end);
            if (part.endsWith("\\") && end < n) {
              meta.append(part, 0, part.length() - 1).append(' ');
              j = end + 1;
              line++;
              continue;
            }
            meta.append(part);
            j = end;
            break;
          }
          metaCommand(meta.toString(), metaLine);
          i = j;
          lineHasContent = true;
          continue;
        }
        lineHasContent = true;
        if (c == '/' && d == '*') {
          int end = skipBlockComment(s, i);
          if (end < 0) {
            throw error(line, "unterminated /* comment");
          }
          line += countLines(s, i, end);
          i = end;
          continue;
        }
        if (cmdStart < 0) {
          cmdStart = i;
          cmdLine = line;
        }
        if (c == '\'' || c == '"' || c == '$') {
          int end = skipQuoted(s, i);
          if (end == -2) {
            throw error(
                line,
                c == '\''
                    ? "unterminated quoted string"
                    : c == '"'
                        ? "unterminated quoted identifier"
                        : "unterminated dollar-quoted string");
          }
          if (end >= 0) {
            line += countLines(s, i, end);
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
      return new Script(src, directives, commands);
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
          end = skipBlockComment(cmd, i);
        } else if (c == '\'' || c == '"' || c == '$') {
          end = skipQuoted(cmd, i);
        }
        if (end >= 0) {
          // comments and quoted text are copied verbatim: no variables in there
          cur.append(cmd, i, end);
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
            vars.add(cmd.substring(i + 1, j));
            i = j;
            continue;
          }
        } else if (c == '?') {
          cur.append("??"); // pgjdbc's escape for a literal question mark
          i++;
          continue;
        } else if (c == '\\' && d == ';') {
          cur.append(';');
          i += 2;
          continue;
        }
        cur.append(c);
        i++;
      }
      pieces.add(cur.toString());
      commands.add(new RawSql(line, cmd, pieces, vars, txOf(cmd)));
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
            commands.add(new RawSet(line, var, ExprParser.parse(expr, src, line)));
            return;
          }
        case "setrandom":
          setRandom(words, line);
          return;
        case "sleep":
          sleep(words, line);
          return;
        case "gset":
          {
            if (words.length > 1) {
              throw error(line, "too many arguments in command \"\\gset\"");
            }
            Raw prev = commands.isEmpty() ? null : commands.get(commands.size() - 1);
            if (!(prev instanceof RawSql) || ((RawSql) prev).gsetPrefix != null) {
              throw error(line, "\\gset must follow an SQL command");
            }
            ((RawSql) prev).gsetPrefix = words.length == 0 ? "" : words[0];
            return;
          }
        case "shell":
        case "setshell":
        case "if":
        case "elif":
        case "else":
        case "endif":
        case "startpipeline":
        case "endpipeline":
        case "aset":
          throw error(
              line, "unsupported meta-command \"\\" + name + "\" (not supported by wg1bench)");
        default:
          throw error(line, "unknown meta-command \"\\" + name + "\"");
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
      commands.add(new RawSet(line, w[0], expr));
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
      commands.add(new RawSleep(line, amount, unit));
    }
  }

  // ---- lexical helpers shared by the splitter and the variable scanner ----

  private static boolean isIdentChar(char c) {
    return ExprParser.isNameChar(c) || c == '$';
  }

  /** End (exclusive) of the nested block comment starting at i, or -1 if unterminated. */
  static int skipBlockComment(String s, int i) {
    int depth = 0;
    int n = s.length();
    int j = i;
    while (j < n) {
      if (s.startsWith("/*", j)) {
        depth++;
        j += 2;
      } else if (s.startsWith("*/", j)) {
        depth--;
        j += 2;
        if (depth == 0) {
          return j;
        }
      } else {
        j++;
      }
    }
    return -1;
  }

  /**
   * End (exclusive) of the quoted construct starting at i ('...', E'...', "...", $tag$...$tag$); -1
   * if the character at i does not start one (e.g. a {@code $1} parameter), -2 if unterminated.
   */
  static int skipQuoted(String s, int i) {
    int n = s.length();
    char c = s.charAt(i);
    if (c == '$') {
      if (i > 0 && isIdentChar(s.charAt(i - 1))) {
        return -1; // "$" inside an identifier
      }
      int j = i + 1;
      if (j < n && (Character.isLetter(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) >= 0x80)) {
        while (j < n && ExprParser.isNameChar(s.charAt(j))) {
          j++;
        }
      }
      if (j >= n || s.charAt(j) != '$') {
        return -1;
      }
      String tag = s.substring(i, j + 1);
      int close = s.indexOf(tag, j + 1);
      return close < 0 ? -2 : close + tag.length();
    }
    // backslash escapes only in E'...' strings (standard_conforming_strings is on)
    boolean escapes =
        c == '\''
            && i > 0
            && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
            && (i < 2 || !isIdentChar(s.charAt(i - 2)));
    int j = i + 1;
    while (j < n) {
      char x = s.charAt(j);
      if (escapes && x == '\\') {
        j += 2;
        continue;
      }
      if (x == c) {
        if (j + 1 < n && s.charAt(j + 1) == c) {
          j += 2; // doubled quote
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return -2;
  }

  private static int countLines(String s, int from, int to) {
    int k = 0;
    for (int i = from; i < to; i++) {
      if (s.charAt(i) == '\n') {
        k++;
      }
    }
    return k;
  }

  /** Transaction role from the leading keywords, ignoring case, whitespace and comments. */
  static TxControl txOf(String sql) {
    int[] pos = {0};
    String w1 = nextWord(sql, pos);
    String w2 = nextWord(sql, pos);
    String w3 = nextWord(sql, pos);
    switch (w1) {
      case "begin":
        return TxControl.BEGIN;
      case "start":
        return w2.equals("transaction") ? TxControl.BEGIN : TxControl.NONE;
      case "end":
      case "commit":
      case "rollback":
      case "abort":
        {
          // COMMIT/ROLLBACK PREPARED act on another transaction; ROLLBACK TO keeps this one; AND
          // CHAIN opens a new one at once
          if (w2.equals("prepared")
              || w2.equals("to")
              || w3.equals("to")
              || (w2.equals("and") && w3.equals("chain"))
              || (w3.equals("and") && nextWord(sql, pos).equals("chain"))) {
            return TxControl.NONE;
          }
          return w1.equals("end") || w1.equals("commit") ? TxControl.COMMIT : TxControl.ROLLBACK;
        }
      default:
        return TxControl.NONE;
    }
  }

  private static String nextWord(String s, int[] pos) {
    int n = s.length();
    int i = pos[0];
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (s.startsWith("--", i)) {
        int e = s.indexOf('\n', i);
        i = e < 0 ? n : e;
      } else if (s.startsWith("/*", i)) {
        int e = skipBlockComment(s, i);
        i = e < 0 ? n : e;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(s.charAt(i))) {
      i++;
    }
    pos[0] = i;
    return s.substring(start, i).toLowerCase(Locale.ROOT);
  }

  // ---- compilation ----

  private interface Resolver {
    int slot(String name) throws ScriptException;
  }

  /**
   * Static check and compilation. {@code predefined} are the variables existing before the script
   * runs (scale, client_id, nclients, default_seed, random_seed, -D defines...). Commands are
   * walked in order: a variable must be predefined or assigned by an earlier {@code \set} / {@code
   * \setrandom}, else {@code "SOURCE:LINE: undefined variable \"x\""}.
   *
   * <p>{@code \gset} results cannot be known statically, so after a {@code \gset PREFIX} any
   * variable whose name starts with PREFIX is accepted (any name at all after a bare {@code
   * \gset}); if the query does not produce that column the slot stays null (NULL).
   *
   * <p>In SQL, an undefined {@code :name} made only of digits (e.g. an array slice {@code a[1:2]})
   * is left as literal text instead of being an error.
   */
  public CompiledScript compile(Set<String> predefined) throws ScriptException {
    Map<String, Integer> slots = new LinkedHashMap<>();
    Set<String> defined = new HashSet<>(predefined);
    List<String> gsetPrefixes = new ArrayList<>();
    List<Step> steps = new ArrayList<>();
    for (Raw raw : commands) {
      final int line = raw.line;
      Resolver resolver =
          name -> {
            if (!isKnown(name, defined, gsetPrefixes)) {
              throw new ScriptException(sourceName, line, "undefined variable \"" + name + "\"");
            }
            return slots.computeIfAbsent(name, k -> slots.size());
          };
      if (raw instanceof RawSql) {
        RawSql sql = (RawSql) raw;
        StringBuilder jdbc = new StringBuilder(sql.pieces.get(0));
        int[] params = new int[sql.vars.size()];
        int np = 0;
        for (int k = 0; k < sql.vars.size(); k++) {
          String name = sql.vars.get(k);
          if (!isKnown(name, defined, gsetPrefixes) && isAllDigits(name)) {
            jdbc.append(':').append(name);
          } else {
            params[np++] = resolver.slot(name);
            jdbc.append('?');
          }
          jdbc.append(sql.pieces.get(k + 1));
        }
        int[] paramSlots = np == params.length ? params : Arrays.copyOf(params, np);
        steps.add(new SqlStep(line, sql.text, jdbc.toString(), paramSlots, sql.tx, sql.gsetPrefix));
        if (sql.gsetPrefix != null) {
          gsetPrefixes.add(sql.gsetPrefix);
        }
      } else if (raw instanceof RawSet) {
        RawSet set = (RawSet) raw;
        Expr e = new Nodes.Located(sourceName, line, build(set.expr, resolver, line));
        defined.add(set.name);
        int slot = slots.computeIfAbsent(set.name, k -> slots.size());
        steps.add(new SetStep(line, slot, e));
      } else {
        RawSleep sl = (RawSleep) raw;
        Expr e =
            new Nodes.Located(sourceName, line, new Nodes.ToLong(build(sl.amount, resolver, line)));
        steps.add(new SleepStep(line, e, sl.unitMicros));
      }
    }
    return new CompiledScript(sourceName, directives, steps, new ArrayList<>(slots.keySet()));
  }

  private static boolean isKnown(String name, Set<String> defined, List<String> gsetPrefixes) {
    if (defined.contains(name)) {
      return true;
    }
    for (String p : gsetPrefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isAllDigits(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private Expr build(Ast ast, Resolver r, int line) throws ScriptException {
    if (ast instanceof Lit) {
      return new Nodes.Const(((Lit) ast).value());
    }
    if (ast instanceof Var) {
      return new Nodes.VarRef(r.slot(((Var) ast).name()));
    }
    Call call = (Call) ast;
    List<Ast> as = call.args();
    Expr[] a = new Expr[as.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = build(as.get(i), r, line);
    }
    switch (call.fn()) {
      case ADD:
        return new Nodes.Arith(Nodes.ADD, a[0], a[1]);
      case SUB:
        return new Nodes.Arith(Nodes.SUB, a[0], a[1]);
      case MUL:
        return new Nodes.Arith(Nodes.MUL, a[0], a[1]);
      case DIV:
        return new Nodes.Arith(Nodes.DIV, a[0], a[1]);
      case MOD:
        return new Nodes.Arith(Nodes.MOD, a[0], a[1]);
      case BITAND:
        return new Nodes.Bit(Nodes.AND, a[0], a[1]);
      case BITOR:
        return new Nodes.Bit(Nodes.OR, a[0], a[1]);
      case BITXOR:
        return new Nodes.Bit(Nodes.XOR, a[0], a[1]);
      case LSHIFT:
        return new Nodes.Bit(Nodes.SHL, a[0], a[1]);
      case RSHIFT:
        return new Nodes.Bit(Nodes.SHR, a[0], a[1]);
      case EQ:
        return new Nodes.Cmp(Nodes.EQ, a[0], a[1]);
      case NE:
        return new Nodes.Cmp(Nodes.NE, a[0], a[1]);
      case LE:
        return new Nodes.Cmp(Nodes.LE, a[0], a[1]);
      case LT:
        return new Nodes.Cmp(Nodes.LT, a[0], a[1]);
      case AND:
        return new Nodes.And(a[0], a[1]);
      case OR:
        return new Nodes.Or(a[0], a[1]);
      case NOT:
        return new Nodes.Not(a[0]);
      case IS:
        return new Nodes.Is(a[0], (Boolean) ((Lit) as.get(1)).value());
      case CASE:
        {
          int pairs = (a.length - 1) / 2;
          Expr[] whens = new Expr[pairs];
          Expr[] thens = new Expr[pairs];
          for (int i = 0; i < pairs; i++) {
            whens[i] = a[2 * i];
            thens[i] = a[2 * i + 1];
          }
          return new Nodes.Case(whens, thens, a[a.length - 1]);
        }
      case ABS:
        return new Nodes.Unary(Nodes.F_ABS, a[0]);
      case DOUBLE:
        return new Nodes.Unary(Nodes.F_DOUBLE, a[0]);
      case EXP:
        return new Nodes.Unary(Nodes.F_EXP, a[0]);
      case INT:
        return new Nodes.Unary(Nodes.F_INT, a[0]);
      case LN:
        return new Nodes.Unary(Nodes.F_LN, a[0]);
      case SQRT:
        return new Nodes.Unary(Nodes.F_SQRT, a[0]);
      case DEBUG:
        return new Nodes.Debug(sourceName + ":" + line, a[0]);
      case GREATEST:
        return new Nodes.Extremum(true, a);
      case LEAST:
        return new Nodes.Extremum(false, a);
      case HASH_MURMUR2:
        return new Nodes.Hash(false, a[0], a.length > 1 ? a[1] : null);
      case HASH_FNV1A:
        return new Nodes.Hash(true, a[0], a.length > 1 ? a[1] : null);
      case PI:
        return new Nodes.Const(Math.PI);
      case POW:
        return new Nodes.Pow(a[0], a[1]);
      case RANDOM:
        return new Nodes.Random(Nodes.R_UNIFORM, a[0], a[1], null);
      case RANDOM_EXPONENTIAL:
        return new Nodes.Random(Nodes.R_EXPONENTIAL, a[0], a[1], a[2]);
      case RANDOM_GAUSSIAN:
        return new Nodes.Random(Nodes.R_GAUSSIAN, a[0], a[1], a[2]);
      case RANDOM_ZIPFIAN:
        return new Nodes.Random(Nodes.R_ZIPFIAN, a[0], a[1], a[2]);
      case PERMUTE:
        return new Nodes.Permute(a[0], a[1], a.length > 2 ? a[2] : null);
      default:
        throw new IllegalStateException("unhandled function " + call.fn());
    }
  }
}
