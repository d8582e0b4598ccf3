package dev.wg1bench.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What wg1bench set up around a target for the run, as the result records it: the container image a
 * target runs from, the server settings it was started with, and the pooler in front of it.
 *
 * @param image container image of a {@code container:} target, e.g. {@code postgres:15}; null for
 *     other kinds
 * @param serverSettings {@code --server-setting} values the server was started with (stock
 *     otherwise)
 * @param via {@code --via} as given, e.g. {@code pgbouncer:transaction,max_prepared_statements=200}
 * @param pooler once started: the pooler's version and the settings it ran with
 * @param server once a pooler is started: the JDBC URL (no password) of the server behind it, which
 *     the tool's own sampling of the clients' server sessions connects to directly
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Provision(
    String image,
    Map<String, String> serverSettings,
    String via,
    Map<String, String> pooler,
    String server) {
  public Provision {
    // in the order given: settings as they were named, the pooler's version first
    serverSettings =
        serverSettings == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(serverSettings));
    pooler = pooler == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(pooler));
  }

  public static Provision image(String image) {
    return new Provision(image, null, null, null, null);
  }

  public Provision withServerSettings(Map<String, String> s) {
    return new Provision(image, s, via, pooler, server);
  }

  public Provision withVia(String v) {
    return new Provision(image, serverSettings, v, pooler, server);
  }

  public Provision withPooler(Map<String, String> p) {
    return new Provision(image, serverSettings, via, p, server);
  }

  public Provision withServer(String url) {
    return new Provision(image, serverSettings, via, pooler, url);
  }
}
