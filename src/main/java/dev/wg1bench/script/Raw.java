package dev.wg1bench.script;

import java.util.List;

/** A parsed command before compilation: variables are still names, jumps not yet resolved. */
abstract class Raw {
  final int line;

  Raw(int line) {
    this.line = line;
  }

  static final class Sql extends Raw {
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
      super(line);
      this.text = text;
      this.pieces = pieces;
      this.textPieces = textPieces;
      this.vars = vars;
      this.tx = tx;
    }
  }

  static final class Set extends Raw {
    final String name;
    final Ast expr;

    Set(int line, String name, Ast expr) {
      super(line);
      this.name = name;
      this.expr = expr;
    }
  }

  static final class Sleep extends Raw {
    final Ast amount;
    final long unitMicros;

    Sleep(int line, Ast amount, long unitMicros) {
      super(line);
      this.amount = amount;
      this.unitMicros = unitMicros;
    }
  }

  /** {@code \if}, {@code \elif}, {@code \else} or {@code \endif}; cond is null for the last two. */
  static final class Cond extends Raw {
    enum Kind {
      IF,
      ELIF,
      ELSE,
      ENDIF
    }

    final Kind kind;
    final Ast cond;

    Cond(int line, Kind kind, Ast cond) {
      super(line);
      this.kind = kind;
      this.cond = cond;
    }
  }

  /** {@code \shell} (target null) or {@code \setshell target}: the command's words as written. */
  static final class Shell extends Raw {
    final String target;
    final List<String> words;

    Shell(int line, String target, List<String> words) {
      super(line);
      this.target = target;
      this.words = words;
    }
  }

  /** {@code \startpipeline}, {@code \syncpipeline} or {@code \endpipeline}. */
  static final class Pipeline extends Raw {
    enum Kind {
      START,
      SYNC,
      END
    }

    final Kind kind;

    Pipeline(int line, Kind kind) {
      super(line);
      this.kind = kind;
    }
  }
}
