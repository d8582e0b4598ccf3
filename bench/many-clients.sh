#!/usr/bin/env bash
# 200 clients (or $1) in one run on the embedded server (or --target given as $2), sampling the
# resident memory of the wg1bench JVM and of its JMH fork every 200 ms; prints the peaks.
#   bench/many-clients.sh [CLIENTS] [TARGET_URL]
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-200}
target=${2:-}
jar=target/wg1bench.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
args=(--workload select_only --clients "$clients" --duration 10s --warmup 2s --output /tmp/many-clients.json)
[ -n "$target" ] && args+=(--target "$target")
java -jar "$jar" "${args[@]}" > /tmp/many-clients.log 2>&1 &
pid=$!
peak_parent=0; peak_fork=0
while kill -0 "$pid" 2>/dev/null; do
  p=$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ' || true)
  [ -n "$p" ] && [ "$p" -gt "$peak_parent" ] && peak_parent=$p
  for c in $(pgrep -P "$pid" java 2>/dev/null || true); do
    f=$(ps -o rss= -p "$c" 2>/dev/null | tr -d ' ' || true)
    [ -n "$f" ] && [ "$f" -gt "$peak_fork" ] && peak_fork=$f
  done
  sleep 0.2
done
wait "$pid"; code=$?
grep -E '^(number of ops|tps|failures by kind)' /tmp/many-clients.log || tail -5 /tmp/many-clients.log
echo "exit $code; peak RSS: wg1bench JVM $((peak_parent / 1024)) MiB, JMH fork $((peak_fork / 1024)) MiB (limit: 1024 MiB each)"
