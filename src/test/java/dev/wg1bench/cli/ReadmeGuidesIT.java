package dev.wg1bench.cli;

/**
 * The runs, reports, history and replays printed in the guides (docs/guides/), run as printed (see
 * {@link ReadmeCommands}): a class of its own so that Failsafe runs them beside the README's and
 * the other pages' ({@link ReadmeExamplesIT}'s), after the README's init, whose tables their runs
 * against the local server read.
 */
class ReadmeGuidesIT extends DocumentedLines {
  @Override
  boolean alsoRuns(ReadmeCommands.Documented d) {
    return ReadmeCommands.theReadmesInit(d);
  }
}
