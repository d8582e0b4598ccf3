package dev.wg1bench.replay.play;

import java.util.Set;

/**
 * Per cue group ({@link Schedule#cueMembers}: a deadlock group's members, or its victim), which of
 * its members' statements have been sent; a statement waits at the {@link OrderGate} until all of a
 * group's have ({@link DeadlockSteer}). Guarded by the gate's monitor.
 */
final class Cues {
  /** Per group, the session of each member. */
  private final int[][] members;

  private final boolean[][] sent;
  private final int[] left;

  Cues(int[][] members) {
    this.members = members;
    this.sent = new boolean[members.length][];
    this.left = new int[members.length];
    for (int k = 0; k < members.length; k++) {
      sent[k] = new boolean[members[k].length];
      left[k] = members[k].length;
    }
  }

  /** Partner {@code member} of {@code group} is being sent; true when it was the last one. */
  boolean send(int group, int member) {
    if (!sent[group][member]) {
      sent[group][member] = true;
      left[group]--;
    }
    return left[group] == 0;
  }

  boolean ready(int group) {
    return left[group] == 0;
  }

  /** Adds to {@code into} the sessions of the group's members not sent yet. */
  void unsent(int group, Set<Integer> into) {
    for (int p = 0; p < members[group].length; p++) {
      if (!sent[group][p]) {
        into.add(members[group][p]);
      }
    }
  }
}
