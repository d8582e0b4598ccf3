package dev.wg1bench.result;

/**
 * How a run's trials were laid out.
 *
 * @param points combinations of targets and swept knob values
 * @param repeat trials per point
 * @param order random or sequential
 * @param seed seed of the random order (reproduce it with --seed)
 * @param betweenTrials hygiene before each trial: auto (checkpoint for writing workloads),
 *     checkpoint, vacuum, reinit, none
 */
public record MatrixInfo(int points, int repeat, String order, long seed, String betweenTrials) {}
