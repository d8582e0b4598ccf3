package dev.wg1bench.result;

import dev.wg1bench.target.ServerInfo;
import java.util.List;

/**
 * One workload measured on one target.
 *
 * @param target name, kind and password-free URL of the server
 * @param scale pgbench scale the scripts saw
 */
public record TrialResult(
    String target,
    String targetKind,
    String url,
    int scale,
    ServerInfo server,
    ClientInfo client,
    Measurement measurement,
    List<ErrorRecord> errors,
    String startedAt,
    String finishedAt) {}
