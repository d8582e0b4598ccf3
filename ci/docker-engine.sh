#!/usr/bin/env bash
# A private Docker engine for the container tests and container targets.
#
#   ci/docker-engine.sh start   install Debian's docker.io if missing (root + apt only), start dockerd on
#                               its own socket and data root, wait until it answers
#   ci/docker-engine.sh stop    remove its containers, stop it by its PID, wait until it and its
#                               containerd are gone
#   ci/docker-engine.sh env     print the export lines Testcontainers needs
#
# Its own socket, data root and exec root keep it apart from any engine the machine already runs.
# --iptables=false --ip-forward=false --ip-masq=false: it changes no firewall rule and no forwarding
# setting on the host; ports published on 127.0.0.1 are still reachable through docker-proxy.
# If DOCKER_HOST (or the default socket) already answers, `start` uses that engine and starts none.
set -euo pipefail

NAME=wg1bench-docker
SOCK=/run/$NAME.sock
PIDFILE=/run/$NAME.pid
DATA_ROOT=${WG1BENCH_DOCKER_DATA_ROOT:-/var/lib/$NAME}
EXEC_ROOT=/run/$NAME
LOG=${WG1BENCH_DOCKER_LOG:-/tmp/$NAME.log}

say() { echo "docker-engine: $*" >&2; }

answers() { timeout 10 docker "$@" info >/dev/null 2>&1; }

env_lines() {
  # Testcontainers 2.0.x reads these two from the environment only. Ryuk: its image is pulled from a
  # registry, and the engine is stopped as a whole at the end anyway. Host override: without it a
  # machine that looks like a container to Testcontainers makes it pull an image to find the gateway.
  echo "export DOCKER_HOST=unix://$SOCK"
  echo "export TESTCONTAINERS_RYUK_DISABLED=true"
  echo "export TESTCONTAINERS_HOST_OVERRIDE=localhost"
}

ours_running() { [[ -s $PIDFILE ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

start() {
  if ! ours_running && answers; then
    say "an engine already answers (${DOCKER_HOST:-default socket}); using it, starting none"
    return 0
  fi
  if ours_running && answers -H "unix://$SOCK"; then
    say "already running, pid $(cat "$PIDFILE")"
    env_lines
    return 0
  fi
  if ! command -v dockerd >/dev/null; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
      say "dockerd is not installed and cannot be installed here (needs root and apt-get)"
      return 1
    fi
    say "installing docker.io"
    # the ordinary client; -qq keeps CI output to errors
    (apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq docker.io) \
      >"$LOG.apt" 2>&1 || {
      say "apt-get install docker.io failed, see $LOG.apt"
      return 1
    }
  fi
  if [[ $(id -u) -ne 0 ]]; then
    say "starting dockerd needs root"
    return 1
  fi
  mkdir -p "$DATA_ROOT" "$EXEC_ROOT"
  # setsid: the engine must not receive the Ctrl-C meant for the build; stop() ends it by PID
  setsid dockerd -H "unix://$SOCK" --data-root "$DATA_ROOT" --exec-root "$EXEC_ROOT" \
    --pidfile "$PIDFILE" --iptables=false --ip-forward=false --ip-masq=false \
    >"$LOG" 2>&1 </dev/null &
  local pid=$! i
  for i in $(seq 1 60); do
    if answers -H "unix://$SOCK"; then
      say "started, pid $pid, socket $SOCK, log $LOG"
      env_lines
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  say "dockerd did not answer within 30 s; last log line: $(tail -1 "$LOG" 2>/dev/null)"
  kill "$pid" 2>/dev/null || true
  return 1
}

stop() {
  if ! ours_running; then
    say "not running"
    return 0
  fi
  local pid
  pid=$(cat "$PIDFILE")
  local ids
  ids=$(timeout 20 docker -H "unix://$SOCK" ps -aq 2>/dev/null || true)
  if [[ -n $ids ]]; then
    # shellcheck disable=SC2086
    timeout 60 docker -H "unix://$SOCK" rm -f $ids >/dev/null 2>&1 || true
  fi
  kill "$pid"
  local i
  for i in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "dockerd $pid still running after 30 s; sending KILL"
    kill -9 "$pid" 2>/dev/null || true
  fi
  # the containerd it started as its child stops with it; wait for that too
  for i in $(seq 1 20); do
    pgrep -f "containerd.*$EXEC_ROOT" >/dev/null || break
    sleep 0.5
  done
  rm -f "$PIDFILE"
  say "stopped"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
env) env_lines ;;
*)
  echo "usage: $0 start|stop|env" >&2
  exit 2
  ;;
esac
