package dev.wg1bench.script;

import java.util.List;

/**
 * A parsed command before compilation: variables are still names, jumps not yet resolved. The
 * commands that only carry what was parsed are records; SQL is a class, a following {@code \gset}
 * or {@code \aset} sets its store prefix later.
 */
sealed interface ParsedCommand {
  /** 1-based line the command starts on. */
  int line();

  static final class Sql implements ParsedCommand {
    final int line;
    final String text;

    /** Literal SQL around variables: pieces.size() == vars.size() + 1. */
    final List<String> pieces;

    final List<String> vars;
    final TxControl tx;

    /** Set by a following {@code \gset} or {@code \aset}: "" or the prefix. */
    String storePrefix;

    /** Whether {@link #storePrefix} came from {@code \aset} (every query, every column). */
    boolean aset;

    /** The same pieces as pgbench -M simple substitutes into: no {@code ?} escaping. */
    final List<String> textPieces;

    Sql(
        int line,
        String text,
        List<String> pieces,
        List<String> textPieces,
        List<String> vars,
        TxControl tx) {
      this.line = line;
      this.text = text;
      this.pieces = pieces;
      this.textPieces = textPieces;
      this.vars = vars;
      this.tx = tx;
    }

    @Override
    public int line() {
      return line;
    }
  }

  record Set(int line, String name, Ast expr) implements ParsedCommand {}

  record Sleep(int line, Ast amount, long unitMicros) implements ParsedCommand {}

  /** {@code \if}, {@code \elif}, {@code \else} or {@code \endif}; cond is null for the last two. */
  record Cond(int line, Kind kind, Ast cond) implements ParsedCommand {
    enum Kind {
      IF,
      ELIF,
      ELSE,
      ENDIF
    }
  }

  /** {@code \shell} (target null) or {@code \setshell target}: the command's words as written. */
  record Shell(int line, String target, List<String> words) implements ParsedCommand {}

  /** {@code \startpipeline}, {@code \syncpipeline} or {@code \endpipeline}. */
  record Pipeline(int line, Kind kind) implements ParsedCommand {
    enum Kind {
      START,
      SYNC,
      END
    }
  }
}
