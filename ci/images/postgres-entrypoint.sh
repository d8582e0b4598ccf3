#!/bin/sh
# Entrypoint of the locally built postgres:NN images. It does what the official image's entrypoint
# does for the variables Testcontainers sets, so that PostgreSQLContainer and jdbc:tc: URLs work the
# same on these images as on the official ones:
#   POSTGRES_USER (default postgres), POSTGRES_PASSWORD (empty: trust), POSTGRES_DB (default: the user);
#   arguments starting with "-" (or after "postgres") go to the server, e.g. `-c fsync=off`.
# It prints "database system is ready to accept connections" twice, as the official image does:
# once for the temporary server that creates the database, once for the real one. Testcontainers
# waits for the second.
set -eu
PGBIN=/usr/lib/postgresql/$PG_MAJOR/bin
export PGDATA="${PGDATA:-/var/lib/postgresql/data}"

if [ "${1:-}" = postgres ]; then
  shift
fi
case "${1:-}" in
"" | -*) ;;
*) exec "$@" ;;
esac

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  auth=trust
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    auth=scram-sha-256
    "$PGBIN/initdb" --username="$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host="$auth" >/dev/null
  else
    "$PGBIN/initdb" --username="$user" --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host=trust >/dev/null
  fi
  rm -f "$pwfile"
  printf 'host all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  "$PGBIN/pg_ctl" -D "$PGDATA" -w -o "-c listen_addresses=''" start
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres \
      -c "CREATE DATABASE \"$db\" OWNER \"$user\"" >/dev/null
  fi
  "$PGBIN/pg_ctl" -D "$PGDATA" -w -m fast stop
fi
exec "$PGBIN/postgres" -c listen_addresses='*' "$@"
