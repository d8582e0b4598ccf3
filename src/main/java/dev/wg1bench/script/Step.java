package dev.wg1bench.script;

/** One executable command of a compiled script. */
public sealed interface Step
    permits SqlStep, SetStep, SleepStep, ShellStep, BranchStep, JumpStep, PipelineStep {
  /** 1-based line where the command starts in the script source. */
  int line();
}
