#!/usr/bin/env bash
# Builds wg1bench into the local Maven repository, then runs the examples' comparisons against it,
# as a user's project would: `examples/run.sh`, or `examples/run.sh -o` once everything is
# downloaded (any arguments go to both Maven commands).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mvn -B -q "$@" install -DskipTests
cd "$root/examples"
mvn -B "$@" test
