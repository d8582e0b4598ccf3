package dev.wg1bench.cli;

import picocli.CommandLine.Command;

/**
 * {@code wg1bench history ...}: the results history. Each verb is a subcommand class of its own
 * (one idea per file); this parent only groups them.
 */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = {
      "The results history: every run stored, change points found, and a CI gate.",
      "Change points come with their uncertainty. Runs go in with --history on a run, replay or "
          + "advise, or with 'history add'."
    },
    subcommands = {
      // history-store: add, list
      HistoryAddCommand.class,
      HistoryListCommand.class,
      // changepoints: analyze, check
      HistoryAnalyzeCommand.class,
      HistoryCheckCommand.class,
      // history-io: import, export, report
      HistoryImportCommand.class,
      HistoryExportCommand.class,
      HistoryReportCommand.class
    })
final class HistoryCommand {}
