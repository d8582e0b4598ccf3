package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Where a run goes, as data: what {@code --target} said once a target kind's rule has read it (the
 * server stage holds the rules and the objects), so the plan can be written to a file and read back
 * by a forked JVM. The URL kept here has no password in it; the password, when there is one, is a
 * {@link Secret} that never serializes.
 *
 * @param name label shown in reports ({@code NAME=URL}, or derived from host/port/db)
 * @param kind which kind of target; each kind declares its value next to its class
 * @param jdbcUrl {@code jdbc:postgresql://...} without password (null until a target started for
 *     the run has one)
 * @param user role name, or null to let pgjdbc use its default
 * @param embeddedVersion PostgreSQL major version wanted for an embedded target, or null for the
 *     bundled one
 * @param provision image, server settings and pooler wg1bench set up for this target (null: none)
 */
public record TargetSpec(
    String name,
    Kind kind,
    String jdbcUrl,
    String user,
    String embeddedVersion,
    @JsonIgnore Secret password,
    @JsonInclude(JsonInclude.Include.NON_NULL) Provision provision) {

  /** Read back from a plan file through all components, provision included. */
  @JsonCreator
  public TargetSpec {}

  /** A target wg1bench sets nothing up around. */
  public TargetSpec(
      String name,
      Kind kind,
      String jdbcUrl,
      String user,
      String embeddedVersion,
      Secret password) {
    this(name, kind, jdbcUrl, user, embeddedVersion, password, null);
  }

  /**
   * A kind of target by the name the JSON shows ({@code EXTERNAL}, {@code EMBEDDED}, ...). Kinds
   * are declared by the classes that implement them, so a new kind adds nothing here.
   */
  public record Kind(String name) {
    @JsonCreator
    public Kind {
      Objects.requireNonNull(name, "kind");
    }

    @JsonValue
    @Override
    public String name() {
      return name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  public TargetSpec withPassword(Secret pw) {
    return new TargetSpec(name, kind, jdbcUrl, user, embeddedVersion, pw, provision);
  }

  public TargetSpec withProvision(Provision p) {
    return new TargetSpec(name, kind, jdbcUrl, user, embeddedVersion, password, p);
  }

  /** The same target reached at another URL, as another role (a pooler in front of it). */
  public TargetSpec at(String url, String role, Secret pw) {
    return new TargetSpec(name, kind, url, role, embeddedVersion, pw, provision);
  }

  /**
   * Which started target a point runs on: its name, and the pooler when there is one, so the two
   * arms of a comparison with and without a pooler in front of the same server are two targets.
   */
  @JsonIgnore
  public String key() {
    String via = provided().via();
    return via == null ? name : name + " via " + via;
  }

  /** What wg1bench set up around this target; never null. */
  public Provision provided() {
    return provision == null ? new Provision(null, null, null, null, null) : provision;
  }

  /** The target with another database in its URL; the same target when {@code db} is null. */
  public TargetSpec inDatabase(String db) {
    if (db == null) {
      return this;
    }
    int q = jdbcUrl.indexOf('?');
    String base = q < 0 ? jdbcUrl : jdbcUrl.substring(0, q);
    String rest = q < 0 ? "" : jdbcUrl.substring(q);
    int slash = base.indexOf('/', "jdbc:postgresql://".length());
    String withDb = (slash < 0 ? base : base.substring(0, slash)) + "/" + db + rest;
    return new TargetSpec(name, kind, withDb, user, embeddedVersion, password, provision);
  }

  /** Removes anything that could be a password from text echoed in an error message. */
  public static String redact(String text) {
    return text.replaceAll("(?i)(password=)[^&]*", "$1****")
        .replaceAll("(://[^:/@]*:)[^@/]*@", "$1****@");
  }

  @Override
  public String toString() {
    return name + (jdbcUrl == null ? "" : " (" + jdbcUrl + ")");
  }
}
