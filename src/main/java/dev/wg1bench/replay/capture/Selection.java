package dev.wg1bench.replay.capture;

import java.util.Map;
import java.util.Set;

/**
 * Which captured sessions replay, and where: empty sets select every session; {@code databases}
 * maps a captured database to the target database its sessions replay into (the target URL's
 * database when unmapped).
 */
public record Selection(
    Set<String> databases,
    Set<String> users,
    Set<String> applications,
    Map<String, String> mapDatabase) {

  public static Selection all() {
    return new Selection(Set.of(), Set.of(), Set.of(), Map.of());
  }

  boolean selects(String database, String user, String application) {
    return (databases.isEmpty() || databases.contains(database))
        && (users.isEmpty() || users.contains(user))
        && (applications.isEmpty() || applications.contains(application));
  }
}
