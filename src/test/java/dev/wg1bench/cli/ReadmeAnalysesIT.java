package dev.wg1bench.cli;

/**
 * The SSB and experiment lines of README.md and docs/, run as printed (see {@link ReadmeCommands}):
 * a class of its own so that Failsafe runs them beside the other README tests, not after them.
 */
class ReadmeAnalysesIT extends DocumentedLines {}
