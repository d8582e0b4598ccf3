#!/usr/bin/env bash
# The wg1bench container image, built the way ci/images.sh builds the test servers' images: a
# debootstrap (minbase) of Debian bookworm with its JRE, the jar added, imported into the engine.
# No registry, no Dockerfile base image: the Debian mirror apt is configured with is enough.
#
#   mvn -B package -DskipTests && deploy/image/build.sh [TAG]   (default wg1bench/wg1bench:latest)
#   docker tag wg1bench/wg1bench:latest REGISTRY/wg1bench:VERSION && docker push ...   (for k8s)
#
# The image's entrypoint is `java -jar /opt/wg1bench/wg1bench.jar`, so its arguments are
# wg1bench's (see deploy/compose/docker-compose.yml and deploy/k8s/agents-job.yaml). Needs root,
# debootstrap (installed with apt-get if missing) and an engine (DOCKER_HOST or the default socket;
# ci/docker-engine.sh starts one). WG1BENCH_IMAGE_ROOTFS=DIR keeps the root file system in DIR
# and skips the import (to check the build where no engine runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TAG=${1:-wg1bench/wg1bench:latest}
JAR=${WG1BENCH_JAR:-$here/../../target/wg1bench.jar}
SUITE=bookworm
MIRROR=${WG1BENCH_DEBIAN_MIRROR:-$({ grep -rhoE 'https?://[^ ]+/debian/?$' /etc/apt/sources.list \
  /etc/apt/sources.list.d/ 2>/dev/null || true; } | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

say() { echo "image: $*" >&2; }

[[ -s $JAR ]] || { say "no jar at $JAR: run mvn -B package -DskipTests first"; exit 2; }
if [[ -z ${WG1BENCH_IMAGE_ROOTFS:-} ]]; then
  timeout 10 docker info >/dev/null 2>&1 || {
    say "no engine answers at ${DOCKER_HOST:-the default socket} (ci/docker-engine.sh start)"
    exit 1
  }
fi
if ! command -v debootstrap >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap) \
    >/dev/null 2>&1 || { say "debootstrap is missing and could not be installed"; exit 1; }
fi
dir=${WG1BENCH_IMAGE_ROOTFS:-$(mktemp -d /tmp/wg1bench-image.XXXXXX)}
mkdir -p "$dir"
cleanup() { [[ -n ${WG1BENCH_IMAGE_ROOTFS:-} ]] || rm -rf "$dir" "$dir.log"; }
trap cleanup EXIT
say "debootstrap $SUITE openjdk-17-jre-headless from $MIRROR"
# ca-certificates-java fails to configure without /proc in a chroot; the JRE runs without it
debootstrap --variant=minbase --include=openjdk-17-jre-headless "$SUITE" "$dir" "$MIRROR" \
  >"$dir.log" 2>&1 || { say "debootstrap failed, see $dir.log"; trap - EXIT; exit 1; }
rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/locale/* \
  "$dir"/var/cache/apt/* "$dir"/var/lib/apt/lists/* "$dir"/var/log/*
install -D -m 644 "$JAR" "$dir/opt/wg1bench/wg1bench.jar"
# runs as an unprivileged user: wg1bench needs no privilege, and the embedded server refuses root
echo 'wg1bench:x:1000:1000::/tmp:/usr/sbin/nologin' >>"$dir/etc/passwd"
echo 'wg1bench:x:1000:' >>"$dir/etc/group"
"$dir"/usr/lib/jvm/java-17-openjdk-amd64/bin/java -version >/dev/null 2>&1 ||
  chroot "$dir" java -version >/dev/null 2>&1 || say "warning: the JRE does not start in the chroot"
if [[ -n ${WG1BENCH_IMAGE_ROOTFS:-} ]]; then
  say "root file system left in $dir (no import)"
  exit 0
fi
tar -C "$dir" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'USER 1000:1000' \
  --change 'WORKDIR /tmp' \
  --change 'ENTRYPOINT ["java", "-jar", "/opt/wg1bench/wg1bench.jar"]' \
  - "$TAG" >/dev/null
say "$TAG built ($(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}'))"
