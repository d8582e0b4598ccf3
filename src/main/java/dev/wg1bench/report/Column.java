package dev.wg1bench.report;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One column of a table of results, declared once: its name (the CSV's header, the JSON's field),
 * its heading on the page, the value it reads from a row and the format it is written in. The CSV,
 * the HTML page and the console iterate the same lists ({@link TrialColumns}, {@link PointColumns},
 * {@link CommandColumns}), so a column added there appears in each writer that shows its row kind,
 * under one name with one figure.
 *
 * <p>A writer can leave a column out ({@link #csvOnly()}: the page and the console are narrower
 * than a spreadsheet; {@link #pageOnly()}: a share the spreadsheet computes itself), show it with
 * more beside the value (a page cell's interval, the console's wording) or in its own order ({@link
 * #pageAt}, {@link #inline}), declared here with the column, never in the writer.
 *
 * @param <R> the row: a trial, a point, a script, a command
 */
public final class Column<R> {
  /** How a value is written on the page and the console; the CSV writes plain numbers. */
  public enum Format {
    /** ops/s, one decimal. */
    TPS("%.1f"),
    /** milliseconds, three decimals (the histograms' microseconds). */
    MS("%.3f"),
    /** a count per op (round trips, statements), two decimals. */
    PER_OP("%.2f"),
    /** a count. */
    COUNT("%d"),
    /** text, as it is. */
    TEXT("%s"),
    /** program text (a statement): as it is, in a code face on the page. */
    CODE("%s"),
    /** a statement class's text: as it is, in the replay page's monospace cells ({@code sql}). */
    SQL("%s"),
    /** an ISO-8601 instant, shown as a date that never wraps. */
    DATE("%s");

    private final String pattern;

    Format(String pattern) {
      this.pattern = pattern;
    }

    /** The value as the page and the console show it; "" for none (null, NaN). */
    String text(Object v) {
      if (v == null || (v instanceof Double d && d.isNaN())) {
        return "";
      }
      if (this == DATE) {
        return ReportOrder.date(v.toString());
      }
      return String.format(Locale.ROOT, pattern, v);
    }
  }

  private final String name;
  private final String header;
  private final Format format;
  private final Function<R, ?> value;
  private Function<R, String> page;
  private boolean onPage = true;
  private boolean inCsv = true;
  private int pagePlace;
  private String consoleHeading;
  private int consoleWidth;
  private Function<R, String> console;
  private int consolePlace;
  private boolean csvAsShown;

  private Column(String name, String header, Format format, Function<R, ?> value) {
    this.name = name;
    this.header = header;
    this.format = format;
    this.value = value;
  }

  /** A column; {@code value} may return null where the row has no figure (an empty cell). */
  public static <R> Column<R> of(String name, String header, Format format, Function<R, ?> value) {
    return new Column<>(name, header, format, value);
  }

  /** The page shows this text instead of the value alone (an interval, a breakdown). */
  public Column<R> page(Function<R, String> text) {
    this.page = text;
    return this;
  }

  /** Only the CSV has this column. */
  public Column<R> csvOnly() {
    this.onPage = false;
    return this;
  }

  /**
   * The page and the console show the column at {@code place}, in their own order (the CSV keeps
   * its order); see {@link #pageAt}.
   */
  public Column<R> at(int place) {
    this.pagePlace = place;
    this.consolePlace = place;
    return this;
  }

  /**
   * The CSV writes the value as the page shows it (milliseconds with three decimals) rather than as
   * a plain number: the replay's CSV has always had fixed decimals.
   */
  public Column<R> csvAsShown() {
    this.csvAsShown = true;
    return this;
  }

  /** Only the page has this column (a figure derived from others, which a spreadsheet derives). */
  public Column<R> pageOnly() {
    this.inCsv = false;
    return this;
  }

  /**
   * The page shows the column at {@code place} (the page's table reads in its own order, as it
   * always has; the CSV keeps its columns' order). Columns without a place come first.
   */
  public Column<R> pageAt(int place) {
    this.pagePlace = place;
    return this;
  }

  /**
   * The console shows the column in a table, under {@code heading}, right-aligned in width (left-
   * aligned when negative; as wide as its text when 0).
   */
  public Column<R> console(String heading, int width) {
    return console(heading, width, null);
  }

  /** As {@link #console(String, int)}, with its own text (null: the value in its format). */
  public Column<R> console(String heading, int width, Function<R, String> text) {
    this.consoleHeading = heading;
    this.consoleWidth = width;
    this.console = text;
    return this;
  }

  /**
   * The console writes the column in a line of prose, as this text ("p99 1.234 ms"), at {@code
   * place} in the line (the line reads in its own order: tps first, as pgbench's).
   */
  public Column<R> inline(int place, Function<R, String> text) {
    this.console = text;
    this.consolePlace = place;
    return this;
  }

  public String name() {
    return name;
  }

  /** The cell in the CSV: plain decimals (no exponent), empty for none. */
  public String csv(R row) {
    Object v = value.apply(row);
    if (csvAsShown) {
      return format.text(v);
    }
    if (v instanceof Double d) {
      return CsvReport.num(d);
    }
    return v == null ? "" : v.toString();
  }

  /** Appends the cell to a page's table row. */
  public void html(StringBuilder h, R row) {
    String text = page != null ? page.apply(row) : format.text(value.apply(row));
    switch (format) {
      case TEXT -> Html.td(h, text);
      case CODE -> Html.code(h, text);
      case SQL -> h.append("<td class=\"sql\">").append(Html.esc(text)).append("</td>");
      case DATE -> Html.date(h, text);
      default -> Html.num(h, text);
    }
  }

  /** The console's text for the row: its own, or the value in its format, padded to the width. */
  public String console(R row) {
    String text = console != null ? console.apply(row) : format.text(value.apply(row));
    return consoleWidth == 0 ? text : String.format(Locale.ROOT, "%" + consoleWidth + "s", text);
  }

  public String consoleHeading() {
    if (consoleWidth == 0) {
      return consoleHeading;
    }
    return String.format(Locale.ROOT, "%" + consoleWidth + "s", consoleHeading);
  }

  /** The columns the CSV writes, in their order. */
  public static <R> List<Column<R>> inCsv(List<Column<R>> columns) {
    return columns.stream().filter(c -> c.inCsv).toList();
  }

  /** The CSV's header for these columns. */
  public static <R> List<String> names(List<Column<R>> columns) {
    return inCsv(columns).stream().map(Column::name).toList();
  }

  /** The columns the page shows, in its order. */
  public static <R> List<Column<R>> onPage(List<Column<R>> columns) {
    return columns.stream()
        .filter(c -> c.onPage)
        .sorted(Comparator.comparingInt(c -> c.pagePlace))
        .toList();
  }

  /** The page's headings of these columns. */
  public static <R> List<String> headers(List<Column<R>> columns) {
    return columns.stream().map(c -> c.header).toList();
  }

  /** The columns the console shows, in a table or in a line of prose in its own order. */
  public static <R> List<Column<R>> onConsole(List<Column<R>> columns) {
    return columns.stream()
        .filter(c -> c.consoleHeading != null || c.console != null)
        .sorted(Comparator.comparingInt(c -> c.consolePlace))
        .toList();
  }
}
