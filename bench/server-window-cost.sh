#!/usr/bin/env bash
# What server/window's pg_stat_activity sampler costs the server: bench/ServerWindowCost.java runs
# windows at several sampling intervals with CLIENTS clients (half busy, half idle) and prints the
# sampler backend's CPU per second (read from /proc, so the server runs on this machine).
#
#   bench/server-window-cost.sh [URL] [CLIENTS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}; clients=${2:-8}; secs=${3:-20}
java=${JAVA:-java}
jar=${JAR:-target/wg1bench.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
"$java" -cp "$jar" bench/ServerWindowCost.java "$url" "$clients" "$secs" 10 10 100 10 100
