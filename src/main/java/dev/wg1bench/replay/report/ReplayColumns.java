package dev.wg1bench.replay.report;

import static dev.wg1bench.report.Column.Format.COUNT;
import static dev.wg1bench.report.Column.Format.MS;
import static dev.wg1bench.report.Column.Format.SQL;

import dev.wg1bench.replay.log.LogReader;
import dev.wg1bench.replay.result.ReplayResult.ClassResult;
import dev.wg1bench.replay.result.ReplayResult.Latency;
import dev.wg1bench.report.Column;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The columns of a replay's statement classes, in the CSV's order: {@link ReplayTables} writes them
 * all to the CSV and shows those on the page, {@link ReplayReport} prints those with a console
 * heading; the page and the console read in their own order (the counts, the replay's latencies
 * beside the log's, the statement last). A class the replay (or the log) has no durations of has
 * empty cells, and "-" on the console.
 */
final class ReplayColumns {
  private ReplayColumns() {}

  /** The console's statement text is cut here: a class's text can be a page long. */
  private static final int CONSOLE_TEXT = 70;

  static final List<Column<ClassResult>> CLASSES =
      List.of(
          Column.<ClassResult>of("class", "statement class", SQL, ClassResult::text)
              .at(10)
              .console("statement class", 0, c -> LogReader.abbreviate(c.text(), CONSOLE_TEXT)),
          Column.<ClassResult>of("log_count", "log n", COUNT, ClassResult::logCount)
              .at(1)
              .console("log n", 8),
          Column.<ClassResult>of("replay_count", "replay n", COUNT, ClassResult::replayCount)
              .at(2)
              .console("replay n", 8),
          Column.<ClassResult>of("log_errors", "log errors", COUNT, ClassResult::logErrors)
              .csvOnly(),
          // the page and the console show the replay's errors, the log's are in the fidelity table
          Column.<ClassResult>of("replay_errors", "errors", COUNT, ClassResult::replayErrors)
              .at(3)
              .console("errors", 6),
          Column.<ClassResult>of("rows_affected", "rows affected", COUNT, ClassResult::rowsAffected)
              .csvOnly(),
          Column.<ClassResult>of("rows_returned", "rows returned", COUNT, ClassResult::rowsReturned)
              .csvOnly(),
          ms("replay_mean_ms", "mean ms", ClassResult::replay, Latency::meanMs)
              .at(4)
              .console("mean ms", 9, dash(ClassResult::replay, Latency::meanMs)),
          ms("replay_p50_ms", "p50 ms", ClassResult::replay, Latency::p50Ms)
              .at(5)
              .console("p50 ms", 9, dash(ClassResult::replay, Latency::p50Ms)),
          ms("replay_p99_ms", "p99 ms", ClassResult::replay, Latency::p99Ms)
              .at(6)
              .console("p99 ms", 9, dash(ClassResult::replay, Latency::p99Ms)),
          ms("replay_max_ms", "max ms", ClassResult::replay, Latency::maxMs).csvOnly(),
          // the console's headings are narrower than the page's: "log mean ms" would widen it
          ms("log_mean_ms", "log mean ms", ClassResult::log, Latency::meanMs)
              .at(7)
              .console("log mean", 9, dash(ClassResult::log, Latency::meanMs)),
          ms("log_p50_ms", "log p50 ms", ClassResult::log, Latency::p50Ms)
              .at(8)
              .console("log p50", 9, dash(ClassResult::log, Latency::p50Ms)),
          ms("log_p99_ms", "log p99 ms", ClassResult::log, Latency::p99Ms)
              .at(9)
              .console("log p99", 9, dash(ClassResult::log, Latency::p99Ms)),
          ms("log_max_ms", "log max ms", ClassResult::log, Latency::maxMs).csvOnly());

  /**
   * A latency of the replay's or the log's durations, none when it has none; the CSV keeps the
   * three decimals it has always had.
   */
  private static Column<ClassResult> ms(
      String name,
      String header,
      Function<ClassResult, Latency> of,
      ToDoubleFunction<Latency> figure) {
    return Column.<ClassResult>of(
            name, header, MS, c -> of.apply(c) == null ? null : figure.applyAsDouble(of.apply(c)))
        .csvAsShown();
  }

  /** The console's text of a latency: "-" when there is none. */
  private static Function<ClassResult, String> dash(
      Function<ClassResult, Latency> of, ToDoubleFunction<Latency> figure) {
    return c ->
        of.apply(c) == null
            ? "-"
            : String.format(Locale.ROOT, "%.3f", figure.applyAsDouble(of.apply(c)));
  }
}
