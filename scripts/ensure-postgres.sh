#!/usr/bin/env bash
# Make sure PostgreSQL answers on 127.0.0.1:5432 for user postgres (password postgres
# or trust): start the installed cluster, or install and configure one when missing.
set -euo pipefail
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else SUDO=""; fi

ready() { command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; }

ready && exit 0
if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  echo "PostgreSQL is not installed; installing it from Debian's packages..."
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /etc/postgresql | sort -V | tail -n 1)
echo "Starting PostgreSQL $version"
$SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
for _ in $(seq 100); do ready && break; sleep 0.2; done
ready || { echo "error: PostgreSQL did not start on 127.0.0.1:5432" >&2; exit 1; }
# A fresh Debian cluster asks for a password over TCP: give postgres the one our URL uses.
$SUDO su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null 2>&1 || true
