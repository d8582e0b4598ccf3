package dev.wg1bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * docs/reference/cli.md, written from the picocli model: every command's help as {@code --help}
 * prints it, so the reference cannot say what the code does not. {@code CliReferenceTest} fails
 * when the file differs from what this writes; regenerate it with {@code java -cp
 * target/wg1bench.jar dev.wg1bench.cli.CliReference docs/reference/cli.md}.
 */
public final class CliReference {
  private CliReference() {}

  /** The width the reference is wrapped at, fixed so the file does not depend on the terminal. */
  static final int WIDTH = 100;

  static final Path FILE = Path.of("docs/reference/cli.md");

  /** Where the build writes the reference it generates (the process-classes phase). */
  static final Path BUILT = Path.of("target/generated-docs/cli.md");

  /** The reference as Markdown. */
  static String markdown() {
    CommandLine root = Main.commandLine();
    root.setUsageHelpAutoWidth(false); // the same reference whatever terminal builds it
    root.setUsageHelpWidth(WIDTH);
    StringBuilder md = new StringBuilder();
    md.append("# CLI reference\n\n")
        .append("<!-- Generated from the picocli model by dev.wg1bench.cli.CliReference; do not")
        .append(" edit.\n     Regenerate: java -cp target/wg1bench.jar")
        .append(" dev.wg1bench.cli.CliReference docs/reference/cli.md -->\n\n")
        .append("Every command's `--help`, as the jar prints it. The options are explained with")
        .append(" examples in\n[run options](run-options.md) and the guides; exit codes are in")
        .append(" [exit codes](exit-codes.md).\n\n");
    contents(root, md, "");
    md.append('\n');
    command(root, md);
    return md.toString();
  }

  private static String qualified(CommandLine cl) {
    return cl.getCommandSpec().qualifiedName(" ");
  }

  private static String anchor(CommandLine cl) {
    return qualified(cl).replace(' ', '-');
  }

  private static void contents(CommandLine cl, StringBuilder md, String indent) {
    md.append(indent)
        .append("- [")
        .append(qualified(cl))
        .append("](#")
        .append(anchor(cl))
        .append(")\n");
    for (CommandLine sub : cl.getSubcommands().values()) {
      contents(sub, md, indent + "  ");
    }
  }

  private static void command(CommandLine cl, StringBuilder md) {
    md.append("## ").append(qualified(cl)).append("\n\n```\n");
    String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
    usage.lines().forEach(l -> md.append(l.stripTrailing()).append('\n'));
    md.append("```\n\n");
    for (CommandLine sub : cl.getSubcommands().values()) {
      command(sub, md);
    }
  }

  /** Writes the reference to the file named (default docs/reference/cli.md). */
  public static void main(String[] args) throws IOException {
    Path out = args.length > 0 ? Path.of(args[0]) : FILE;
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, markdown());
    // the build passes --quiet: its own log says what ran
    if (!List.of(args).contains("--quiet")) {
      System.out.println("wrote " + out);
    }
  }
}
