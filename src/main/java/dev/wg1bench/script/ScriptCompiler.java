package dev.wg1bench.script;

import dev.wg1bench.script.Ast.Call;
import dev.wg1bench.script.Ast.Fn;
import dev.wg1bench.script.Ast.Lit;
import dev.wg1bench.script.Ast.Var;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a parsed script into steps: variables become slot indexes, {@code \if} blocks become
 * conditional and unconditional jumps, a pipeline's commands up to each {@code \syncpipeline} /
 * {@code \endpipeline} become one {@link PipelineStep}.
 *
 * <p>Commands are walked in order: a variable must be predefined or assigned by an earlier {@code
 * \set} / {@code \setrandom} (earlier in the text, whichever branch it is in), else {@code
 * "SOURCE:LINE: undefined variable \"x\""}.
 *
 * <p>{@code \gset}/{@code \aset} results cannot be known statically, so after one with PREFIX any
 * variable whose name starts with PREFIX is accepted (any name at all after a bare one); if the
 * query does not produce that column the slot stays null (NULL).
 *
 * <p>In SQL, an undefined {@code :name} made only of digits (e.g. an array slice {@code a[1:2]}) is
 * left as literal text instead of being an error.
 */
final class ScriptCompiler {
  private final String sourceName;
  private final Map<String, String> directives;
  private final List<ParsedCommand> commands;

  private final Map<String, Integer> slots = new LinkedHashMap<>();
  private final List<String> storePrefixes = new ArrayList<>();
  private Set<String> defined;

  ScriptCompiler(String sourceName, Map<String, String> directives, List<ParsedCommand> commands) {
    this.sourceName = sourceName;
    this.directives = directives;
    this.commands = commands;
  }

  private interface Resolver {
    int slot(String name) throws ScriptException;
  }

  /** An \if block being compiled: where its pending jumps are. */
  private static final class Block {
    /** Index of the BranchStep whose false target is still open, or -1. */
    int pendingBranch = -1;

    int pendingBranchLine;
    Expr pendingCond;

    /** Indexes of the JumpSteps to patch with the step after \endif. */
    final List<Integer> exits = new ArrayList<>();

    final List<Integer> exitLines = new ArrayList<>();
  }

  CompiledScript compile(Set<String> predefined) throws ScriptException {
    defined = new HashSet<>(predefined);
    List<Step> steps = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    List<Step> pipe = null;
    int pipeLine = 0;
    boolean pipeOpens = false;
    for (ParsedCommand raw : commands) {
      List<Step> out = pipe != null ? pipe : steps;
      if (raw instanceof ParsedCommand.Sql sql) {
        out.add(sql(sql));
      } else if (raw instanceof ParsedCommand.Set set) {
        Expr e = located(set.line(), build(set.expr(), resolver(set.line()), set.line()));
        defined.add(set.name());
        int slot = slots.computeIfAbsent(set.name(), k -> slots.size());
        out.add(new SetStep(set.line(), slot, e));
      } else if (raw instanceof ParsedCommand.Sleep sl) {
        Expr e =
            located(
                sl.line(), new Nodes.ToLong(build(sl.amount(), resolver(sl.line()), sl.line())));
        out.add(new SleepStep(sl.line(), e, sl.unitMicros()));
      } else if (raw instanceof ParsedCommand.Shell sh) {
        out.add(shell(sh));
      } else if (raw instanceof ParsedCommand.Pipeline p) {
        if (p.kind() == ParsedCommand.Pipeline.Kind.START) {
          pipe = new ArrayList<>();
          pipeLine = p.line();
          pipeOpens = true;
        } else {
          steps.add(pipeline(pipeLine, pipe, p.line(), pipeOpens));
          pipe = p.kind() == ParsedCommand.Pipeline.Kind.END ? null : new ArrayList<>();
          pipeLine = p.line();
          pipeOpens = false;
        }
      } else {
        conditional((ParsedCommand.Cond) raw, steps, blocks);
      }
    }
    return new CompiledScript(sourceName, directives, steps, new ArrayList<>(slots.keySet()));
  }

  /**
   * \if c1 A \elif c2 B \else C \endif becomes: branch(c1, else to L1) A jump(end) L1: branch(c2,
   * else to L2) B jump(end) L2: C jump(end) end:. Targets are patched once known. The last jump is
   * the \endif's own step: it runs only when the branch before it ran to its end, which is when
   * pgbench executes (and pgbench -r times) an \endif; a skipped branch's \endif is not.
   */
  private void conditional(ParsedCommand.Cond c, List<Step> steps, List<Block> blocks)
      throws ScriptException {
    switch (c.kind()) {
      case IF -> {
        Block b = new Block();
        blocks.add(b);
        openBranch(b, c, steps);
      }
      case ELIF -> {
        Block b = blocks.get(blocks.size() - 1);
        closeBranch(b, c.line(), steps);
        openBranch(b, c, steps);
      }
      case ELSE -> closeBranch(blocks.get(blocks.size() - 1), c.line(), steps);
      case ENDIF -> {
        Block b = blocks.remove(blocks.size() - 1);
        steps.add(new JumpStep(c.line(), steps.size() + 1));
        patchBranch(b, steps);
        for (int k = 0; k < b.exits.size(); k++) {
          steps.set(b.exits.get(k), new JumpStep(b.exitLines.get(k), steps.size()));
        }
      }
    }
  }

  private void openBranch(Block b, ParsedCommand.Cond c, List<Step> steps) throws ScriptException {
    b.pendingCond = located(c.line(), build(c.cond(), resolver(c.line()), c.line()));
    b.pendingBranchLine = c.line();
    b.pendingBranch = steps.size();
    steps.add(null);
  }

  /** A branch ends: jump past \endif, and the pending condition's false target is here. */
  private static void closeBranch(Block b, int line, List<Step> steps) {
    b.exits.add(steps.size());
    b.exitLines.add(line);
    steps.add(null);
    patchBranch(b, steps);
  }

  private static void patchBranch(Block b, List<Step> steps) {
    if (b.pendingBranch >= 0) {
      steps.set(b.pendingBranch, new BranchStep(b.pendingBranchLine, b.pendingCond, steps.size()));
      b.pendingBranch = -1;
    }
  }

  private PipelineStep pipeline(int line, List<Step> body, int closeLine, boolean opens) {
    StringBuilder sql = new StringBuilder();
    int n = 0;
    for (Step s : body) {
      if (s instanceof SqlStep q) {
        if (n++ > 0) {
          // on a line of its own: a statement may end in a -- comment
          sql.append("\n;\n");
        }
        sql.append(q.jdbcSql());
      }
    }
    return new PipelineStep(
        line, List.copyOf(body), n == 0 ? null : sql.toString(), n, closeLine, opens);
  }

  private Resolver resolver(int line) {
    return name -> {
      if (!isKnown(name)) {
        throw new ScriptException(sourceName, line, "undefined variable \"" + name + "\"");
      }
      return slots.computeIfAbsent(name, k -> slots.size());
    };
  }

  /** A {@code :name} word becomes the variable's slot, a {@code ::word} the text {@code :word}. */
  private ShellStep shell(ParsedCommand.Shell sh) throws ScriptException {
    Resolver r = resolver(sh.line());
    int n = sh.words().size();
    String[] words = new String[n];
    int[] wordSlots = new int[n];
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      String w = sh.words().get(i);
      wordSlots[i] = -1;
      if (w.startsWith("::")) {
        words[i] = w.substring(1);
      } else if (w.startsWith(":") && w.length() > 1) {
        names[i] = w.substring(1);
        wordSlots[i] = r.slot(names[i]);
      } else {
        words[i] = w;
      }
    }
    int target = -1;
    if (sh.target() != null) {
      defined.add(sh.target());
      target = slots.computeIfAbsent(sh.target(), k -> slots.size());
    }
    return new ShellStep(sh.line(), sourceName, words, wordSlots, names, target);
  }

  private Expr located(int line, Expr e) {
    return new Nodes.Located(sourceName, line, e);
  }

  private SqlStep sql(ParsedCommand.Sql sql) throws ScriptException {
    Resolver resolver = resolver(sql.line);
    StringBuilder jdbc = new StringBuilder(sql.pieces.get(0));
    StringBuilder text = new StringBuilder(sql.textPieces.get(0));
    List<String> textPieces = new ArrayList<>();
    List<String> names = new ArrayList<>();
    int[] params = new int[sql.vars.size()];
    int np = 0;
    for (int k = 0; k < sql.vars.size(); k++) {
      String name = sql.vars.get(k);
      if (!isKnown(name) && isAllDigits(name)) {
        jdbc.append(':').append(name);
        text.append(':').append(name);
      } else {
        params[np++] = resolver.slot(name);
        names.add(name);
        jdbc.append('?');
        textPieces.add(text.toString());
        text.setLength(0);
      }
      jdbc.append(sql.pieces.get(k + 1));
      text.append(sql.textPieces.get(k + 1));
    }
    textPieces.add(text.toString());
    int[] paramSlots = np == params.length ? params : Arrays.copyOf(params, np);
    if (sql.storePrefix != null) {
      storePrefixes.add(sql.storePrefix);
    }
    return new SqlStep(
        sql.line,
        sql.text,
        jdbc.toString(),
        paramSlots,
        sql.tx,
        sql.storePrefix,
        sql.aset,
        textPieces.toArray(new String[0]),
        names.toArray(new String[0]));
  }

  private boolean isKnown(String name) {
    if (defined.contains(name)) {
      return true;
    }
    for (String p : storePrefixes) {
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
    if (ast instanceof Call c
        && isBinary(c.fn())
        && c.args().get(0) instanceof Call l
        && isBinary(l.fn())) {
      return chain(c, r, line);
    }
    if (ast instanceof Lit) {
      return new Nodes.Const(((Lit) ast).value());
    }
    if (ast instanceof Var) {
      String name = ((Var) ast).name();
      return new Nodes.VarRef(r.slot(name), name);
    }
    Call call = (Call) ast;
    List<Ast> as = call.args();
    Expr[] a = new Expr[as.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = build(as.get(i), r, line);
    }
    Expr op = operator(call.fn(), as, a);
    return op != null ? op : function(call.fn(), a, line);
  }

  /**
   * A left-deep run of binary operators ({@code 1+1+...+1}, as the parser leaves it) walked in a
   * loop and compiled to one {@link Nodes.Chain}: only the right operands recurse, and their depth
   * is bounded by the parser's.
   */
  private Expr chain(Call top, Resolver r, int line) throws ScriptException {
    ArrayDeque<Call> spine = new ArrayDeque<>();
    Ast a = top;
    while (a instanceof Call c && isBinary(c.fn())) {
      spine.push(c);
      a = c.args().get(0);
    }
    Expr first = build(a, r, line);
    Nodes.Link[] links = new Nodes.Link[spine.size()];
    for (int i = 0; i < links.length; i++) {
      Call c = spine.pop();
      Expr[] operands = {null, build(c.args().get(1), r, line)};
      links[i] = (Nodes.Link) operator(c.fn(), c.args(), operands);
    }
    return new Nodes.Chain(first, links);
  }

  /** The operators of two operands, each node a {@link Nodes.Link} of a chain. */
  private static boolean isBinary(Fn fn) {
    return switch (fn) {
      case ADD,
          SUB,
          MUL,
          DIV,
          MOD,
          BITAND,
          BITOR,
          BITXOR,
          LSHIFT,
          RSHIFT,
          EQ,
          NE,
          LE,
          LT,
          AND,
          OR ->
          true;
      default -> false;
    };
  }

  /** The operators: arithmetic, bits, comparisons, logic, IS and CASE; null for a function. */
  private static Expr operator(Fn fn, List<Ast> as, Expr[] a) {
    switch (fn) {
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
        return new Nodes.Logic(true, a[0], a[1]);
      case OR:
        return new Nodes.Logic(false, a[0], a[1]);
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
      default:
        return null;
    }
  }

  /** The built-in functions, pgbench's list. */
  private Expr function(Fn fn, Expr[] a, int line) {
    switch (fn) {
      case ABS:
        return new FunctionNodes.Unary(FunctionNodes.F_ABS, a[0]);
      case DOUBLE:
        return new FunctionNodes.Unary(FunctionNodes.F_DOUBLE, a[0]);
      case EXP:
        return new FunctionNodes.Unary(FunctionNodes.F_EXP, a[0]);
      case INT:
        return new FunctionNodes.Unary(FunctionNodes.F_INT, a[0]);
      case LN:
        return new FunctionNodes.Unary(FunctionNodes.F_LN, a[0]);
      case SQRT:
        return new FunctionNodes.Unary(FunctionNodes.F_SQRT, a[0]);
      case DEBUG:
        return new FunctionNodes.Debug(sourceName + ":" + line, a[0]);
      case GREATEST:
        return new FunctionNodes.Extremum(true, a);
      case LEAST:
        return new FunctionNodes.Extremum(false, a);
      case HASH_MURMUR2:
        return new FunctionNodes.Hash(false, a[0], a.length > 1 ? a[1] : null);
      case HASH_FNV1A:
        return new FunctionNodes.Hash(true, a[0], a.length > 1 ? a[1] : null);
      case PI:
        return new Nodes.Const(Math.PI);
      case POW:
        return new FunctionNodes.Pow(a[0], a[1]);
      case RANDOM:
        return new FunctionNodes.Random(FunctionNodes.R_UNIFORM, a[0], a[1], null);
      case RANDOM_EXPONENTIAL:
        return new FunctionNodes.Random(FunctionNodes.R_EXPONENTIAL, a[0], a[1], a[2]);
      case RANDOM_GAUSSIAN:
        return new FunctionNodes.Random(FunctionNodes.R_GAUSSIAN, a[0], a[1], a[2]);
      case RANDOM_ZIPFIAN:
        return new FunctionNodes.Random(FunctionNodes.R_ZIPFIAN, a[0], a[1], a[2]);
      case PERMUTE:
        return new FunctionNodes.Permute(a[0], a[1], a.length > 2 ? a[2] : null);
      default:
        throw new IllegalStateException("unhandled function " + fn);
    }
  }
}
