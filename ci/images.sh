#!/usr/bin/env bash
# The container images the container tests and `--target container:` / `--via pgbouncer:` use, built
# locally where no registry is reachable:
#
#   postgres:15               Debian bookworm's postgresql-15
#   postgres:17               Debian trixie's postgresql-17
#   wg1bench/pgbouncer:trixie Debian trixie's pgbouncer (1.24)
#   wg1bench/jre:trixie       Debian trixie's JRE (openjdk-21: trixie has no 17, and the jar's
#                             Java 17 classes run on it), uid 1000: the base of the wg1bench image
#                             (deploy/image/build.sh adds the jar) and of the agents' test (AgentsIT)
#
#   ci/images.sh [IMAGE...]   all four when none is named
#
# Each is a debootstrap (minbase) from the Debian mirror apt is configured with, trimmed, imported
# with an entrypoint of ours: ci/images/postgres-entrypoint.sh honours the variables Testcontainers
# sets, as the official image's does; src/main/resources/pgbouncer/entrypoint.sh runs PgBouncer.
# The JRE image has none: what runs is the caller's (the wg1bench image's `java -jar`, AgentsIT's
# command); its JRE is checked to start in the imported image before it is cached.
# Tagged postgres:NN, Testcontainers finds them locally and pulls nothing. An image already in the engine is kept; else it is loaded from
# ~/.cache/wg1bench/images (a `docker save | gzip`, keyed on this script and the entrypoints, so a
# change to either rebuilds); else it is built and saved there. Builds run in parallel.
# Needs root, debootstrap (installed with apt-get if missing) and an engine (DOCKER_HOST).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${WG1BENCH_IMAGE_CACHE:-$HOME/.cache/wg1bench/images}
MIRROR=${WG1BENCH_DEBIAN_MIRROR:-$({ grep -rhoE 'https?://[^ ]+/debian/?$' /etc/apt/sources.list \
  /etc/apt/sources.list.d/ 2>/dev/null || true; } | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# the PgBouncer entrypoint ships in the jar too: without this image, --via builds one from a
# Dockerfile next to it (where a registry is reachable)
entrypoint_postgres=$here/images/postgres-entrypoint.sh
entrypoint_pgbouncer=$here/../src/main/resources/pgbouncer/entrypoint.sh
key=$(cat "$0" "$entrypoint_postgres" "$entrypoint_pgbouncer" | sha256sum | cut -c1-12)

say() { echo "images: $*" >&2; }

# image -> suite, packages, entrypoint, extra import changes
recipe() {
  case "$1" in
  postgres:15) echo "bookworm postgresql-15 postgres PG_MAJOR=15" ;;
  postgres:17) echo "trixie postgresql-17 postgres PG_MAJOR=17" ;;
  wg1bench/pgbouncer:trixie) echo "trixie pgbouncer pgbouncer -" ;;
  wg1bench/jre:trixie) echo "trixie openjdk-21-jre-headless jre -" ;;
  *) return 1 ;;
  esac
}

build() {
  local image=$1 suite pkgs kind envv dir
  read -r suite pkgs kind envv <<<"$(recipe "$image")"
  dir=$(mktemp -d /tmp/wg1bench-image.XXXXXX)
  say "$image: debootstrap $suite $pkgs"
  debootstrap --variant=minbase --include="$pkgs" "$suite" "$dir" "$MIRROR" \
    >"$dir.log" 2>&1 || {
    say "$image: debootstrap failed, see $dir.log"
    rm -rf "$dir"
    return 1
  }
  # the package's own cluster and docs are not needed: the entrypoint runs initdb itself
  rm -rf "$dir"/var/lib/postgresql/* "$dir"/etc/postgresql/* "$dir"/usr/share/doc/* \
    "$dir"/usr/share/man/* "$dir"/usr/share/locale/* "$dir"/var/cache/apt/* \
    "$dir"/var/lib/apt/lists/* "$dir"/var/log/*
  local changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
  if [[ $kind == jre ]]; then
    # wg1bench needs no privilege (and the embedded server refuses root): an unprivileged user
    # whose home is writable, so that JMH's and the JVM's temporary files have a place
    echo 'wg1bench:x:1000:1000::/tmp:/usr/sbin/nologin' >>"$dir/etc/passwd"
    echo 'wg1bench:x:1000:' >>"$dir/etc/group"
    changes+=(--change 'ENV LANG=C.UTF-8' --change 'USER 1000:1000' --change 'WORKDIR /tmp')
  else
    local entrypoint=entrypoint_$kind
    install -m 755 "${!entrypoint}" "$dir/usr/local/bin/entrypoint.sh"
    changes+=(--change 'ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]')
  fi
  if [[ $kind == postgres ]]; then
    changes+=(--change "ENV $envv" --change 'ENV PGDATA=/var/lib/postgresql/data'
      --change 'EXPOSE 5432' --change 'CMD ["postgres"]')
  elif [[ $kind == pgbouncer ]]; then
    changes+=(--change 'EXPOSE 6432')
  fi
  tar -C "$dir" -c . | docker import "${changes[@]}" - "$image" >/dev/null || {
    say "$image: docker import failed"
    rm -rf "$dir" "$dir.log"
    return 1
  }
  rm -rf "$dir" "$dir.log"
  # the JRE finds its libraries through /proc/self/exe, which a bare chroot lacks: check it here
  if [[ $kind == jre ]] && ! docker run --rm "$image" java -version >/dev/null 2>&1; then
    say "$image: the JRE does not start in the image"
    docker rmi "$image" >/dev/null 2>&1 || true
    return 1
  fi
  mkdir -p "$CACHE"
  docker save "$image" | gzip -1 >"$(cached "$image").tmp"
  mv "$(cached "$image").tmp" "$(cached "$image")"
  say "$image: built and saved to $(cached "$image")"
}

cached() { echo "$CACHE/${1//[:\/]/-}-$key.tar.gz"; }

one() {
  local image=$1
  if docker image inspect "$image" >/dev/null 2>&1; then
    say "$image: present"
  elif [[ -s $(cached "$image") ]]; then
    docker load -q <"$(cached "$image")" >/dev/null
    say "$image: loaded from $(cached "$image")"
  else
    build "$image"
  fi
}

images=("$@")
all=(postgres:15 postgres:17 wg1bench/pgbouncer:trixie wg1bench/jre:trixie)
[[ ${#images[@]} -gt 0 ]] || images=("${all[@]}")
for i in "${images[@]}"; do
  recipe "$i" >/dev/null || {
    say "unknown image $i (known: ${all[*]})"
    exit 2
  }
done
timeout 10 docker info >/dev/null 2>&1 || {
  say "no engine answers at ${DOCKER_HOST:-the default socket}"
  exit 1
}
if ! command -v debootstrap >/dev/null; then
  (apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq debootstrap) \
    >/dev/null 2>&1 || say "debootstrap is missing and could not be installed"
fi
pids=()
for i in "${images[@]}"; do
  one "$i" &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
