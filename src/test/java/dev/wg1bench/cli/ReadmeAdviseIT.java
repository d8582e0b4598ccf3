package dev.wg1bench.cli;

/**
 * The advise lines of README.md and docs/, run as printed (see {@link ReadmeCommands}), but for
 * those against a named server ({@link ReadmeAdviseServerIT}'s): a class of its own, since its
 * claims' blocks hold much of the documented lines' time, so that Failsafe runs them beside the
 * other README tests, not after them.
 */
class ReadmeAdviseIT extends DocumentedLines {}
