package dev.wg1bench.api;

import dev.wg1bench.plan.TargetSpec;
import java.util.Objects;

/**
 * The target each arm of a comparison runs on, named so that a run, which keeps one server per name
 * and connects to it with that name's credentials, keeps both: two DataSources are both
 * "datasource", and one URL as two users is one name, under which the treatment ran as the
 * baseline's user.
 *
 * @param baseline the baseline's target
 * @param treatment the treatment's: the baseline's own when it names none
 */
record ArmTargets(TargetSpec baseline, TargetSpec treatment) {
  /** The arms' targets as given ({@code treatment} null: the baseline's), renamed where alike. */
  static ArmTargets of(TargetSpec base, TargetSpec treat) {
    if (treat == null) {
      return new ArmTargets(base, base);
    }
    if (!treat.key().equals(base.key())) {
      return new ArmTargets(base, treat);
    }
    boolean oneUrl = Objects.equals(treat.jdbcUrl(), base.jdbcUrl());
    if (oneUrl && !Objects.equals(treat.user(), base.user())) {
      // each named by its user, the result says who each arm ran as
      return new ArmTargets(renamed(base, asUser(base)), renamed(treat, asUser(treat)));
    }
    if (oneUrl && samePassword(base, treat)) {
      // one server, one user: one target
      return new ArmTargets(base, treat);
    }
    return new ArmTargets(base, renamed(treat, treat.name() + "-treatment"));
  }

  /** "NAME as USER": a password is never part of a name. */
  private static String asUser(TargetSpec t) {
    return t.name() + " as " + (t.user() == null ? "the driver's default user" : t.user());
  }

  private static boolean samePassword(TargetSpec a, TargetSpec b) {
    return Objects.equals(
        a.password() == null ? null : a.password().reveal(),
        b.password() == null ? null : b.password().reveal());
  }

  private static TargetSpec renamed(TargetSpec t, String name) {
    return new TargetSpec(
        name, t.kind(), t.jdbcUrl(), t.user(), t.embeddedVersion(), t.password(), t.provision());
  }
}
