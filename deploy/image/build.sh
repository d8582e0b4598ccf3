#!/usr/bin/env bash
# The wg1bench container image: the jar on Debian trixie's JRE.
#
#   mvn -B package -DskipTests && deploy/image/build.sh [TAG]   (default wg1bench/wg1bench:latest)
#   docker tag wg1bench/wg1bench:latest REGISTRY/wg1bench:VERSION && docker push ...   (for k8s)
#
# Two layers, so that a new jar costs seconds: the base wg1bench/jre:trixie (a debootstrap of
# Debian's JRE, built by ci/images.sh the way it builds the test servers' PostgreSQL images, and
# cached in ~/.cache/wg1bench/images) and, on top, the jar (deploy/image/Dockerfile, `docker build`
# with the jar as the only file of the context). No registry is needed: the base is local.
#
# The image's entrypoint is `java -jar /opt/wg1bench/wg1bench.jar`, so its arguments are
# wg1bench's (see deploy/compose/docker-compose.yml and deploy/k8s/agents-job.yaml). Needs an
# engine (DOCKER_HOST or the default socket; ci/docker-engine.sh starts one) and, the first time,
# root and debootstrap for the base.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TAG=${1:-wg1bench/wg1bench:latest}
JAR=${WG1BENCH_JAR:-$here/../../target/wg1bench.jar}

say() { echo "image: $*" >&2; }

[[ -s $JAR ]] || { say "no jar at $JAR: run mvn -B package -DskipTests first"; exit 2; }
timeout 10 docker info >/dev/null 2>&1 || {
  say "no engine answers at ${DOCKER_HOST:-the default socket} (ci/docker-engine.sh start)"
  exit 1
}
"$here/../../ci/images.sh" wg1bench/jre:trixie
ctx=$(mktemp -d /tmp/wg1bench-image.XXXXXX)
trap 'rm -rf "$ctx" "$ctx.log"' EXIT
cp "$JAR" "$ctx/wg1bench.jar"
# the output only on failure: the engine's legacy builder warns that it is deprecated on every build
docker build -q -t "$TAG" -f "$here/Dockerfile" "$ctx" >"$ctx.log" 2>&1 || {
  cat "$ctx.log" >&2
  say "docker build failed"
  exit 1
}
docker run --rm --network none "$TAG" --version >/dev/null 2>&1 || {
  say "$TAG built but does not run"
  exit 1
}
say "$TAG built ($(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}'))"
