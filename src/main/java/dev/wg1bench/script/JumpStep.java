package dev.wg1bench.script;

/**
 * The end of a taken {@code \if}/{@code \elif} branch: continue at the step after {@code \endif}.
 */
public record JumpStep(int line, int target) implements Step {}
