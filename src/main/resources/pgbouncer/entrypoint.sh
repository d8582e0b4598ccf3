#!/bin/sh
# Entrypoint of the locally built PgBouncer image: PgBouncer refuses to run as root, so it runs as
# the package's postgres user. Its configuration is copied in by whoever starts the container
# (default path below); arguments go to pgbouncer.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p /var/run/postgresql
  chown postgres:postgres /var/run/postgresql
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ $# -eq 0 ]; then
  set -- /etc/pgbouncer/pgbouncer.ini
fi
exec /usr/sbin/pgbouncer "$@"
