#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server (used by `make test`).
#
#   bash tools/pg-test.sh COMMAND [ARGS ...]
#
# Creates a temporary directory, initialises a cluster in it (as the
# unprivileged system user dpfda-pg when run as root: initdb refuses root),
# starts it listening only on a unix socket inside that directory (no TCP
# port, so nothing else on the machine is touched or can collide), exports
# DPFDA_PG_HOST / DPFDA_PG_PORT / DPFDA_PG_USER / DPFDA_PG_DBNAME for the
# engine tests, runs COMMAND and exits with COMMAND's status. The server is
# stopped and the directory removed on any exit (test failure, error,
# interrupt). When the server cannot start, COMMAND still runs, with
# DPFDA_PG_SKIP saying why (the tests skip with that reason, or fail where
# DPFDA_PG_REQUIRED=1 or CI=true).
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGS ...]" >&2; exit 2; }

PG_USER_SYS=dpfda-pg
dir=""
pgbin=""

skip() {
  echo "dpfda: no PostgreSQL test server: $1" >&2
  export DPFDA_PG_SKIP="$1"
  unset DPFDA_PG_HOST DPFDA_PG_PORT DPFDA_PG_USER DPFDA_PG_DBNAME
}

cleanup() {
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    if [ -n "$pgbin" ] && [ -f "$dir/data/postmaster.pid" ]; then
      as_pg "$pgbin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$dir"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PG_USER_SYS" -- "$@"
  else
    "$@"
  fi
}

start_server() {
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$pgbin" ] && command -v pg_ctl >/dev/null; then pgbin=$(dirname "$(command -v pg_ctl)"); fi
  if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then
    skip "the PostgreSQL server (initdb, pg_ctl) is not installed (Debian: apt-get install postgresql)"
    return 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    if ! id -u "$PG_USER_SYS" >/dev/null 2>&1; then
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_USER_SYS" ||
        { skip "could not create the system user $PG_USER_SYS to run initdb (initdb refuses root)"; return 1; }
    fi
    command -v runuser >/dev/null || { skip "runuser is missing (needed to run initdb as $PG_USER_SYS)"; return 1; }
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/dpfda-pg.XXXXXX") || { skip "could not create a temporary directory"; return 1; }
  chmod 755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown "$PG_USER_SYS" "$dir"
  if ! as_pg "$pgbin/initdb" -D "$dir/data" -U dpfda --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1; then
    skip "initdb failed: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
    return 1
  fi
  # unix socket in $dir only (listen_addresses empty: no TCP); a throwaway
  # cluster needs no durability
  if ! as_pg "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
    skip "the server did not start: $(tail -n 3 "$dir/server.log" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
  export DPFDA_PG_HOST="$dir" DPFDA_PG_PORT=5432 DPFDA_PG_USER=dpfda DPFDA_PG_DBNAME=postgres
  unset DPFDA_PG_SKIP
  echo >&2 "dpfda: PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') test server on the unix socket in $dir"
  return 0
}

# RPostgres loads lubridate, whose Sys.timezone() asks timedatectl where TZ is
# unset (without systemd: a warning and a stray "Failed to connect to bus")
if [ -z "${TZ:-}" ]; then
  TZ=$(cat /etc/timezone 2>/dev/null || echo UTC)
  export TZ
fi
start_server
"$@"
status=$?
exit $status
