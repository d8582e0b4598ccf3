package dev.wg1bench.cli;

/**
 * The advise guide's run of every shipped claim against a named server, with the init before it, as
 * printed (see {@link ReadmeCommands}): one line as long as all the other advise lines together
 * ({@link ReadmeAdviseIT}'s), in a class of its own so that Failsafe runs the two side by side.
 */
class ReadmeAdviseServerIT extends DocumentedLines {}
