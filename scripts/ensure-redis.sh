#!/usr/bin/env bash
# Make sure a Redis answers at $1 (default redis://127.0.0.1:6379/0): start the
# installed server if none answers, install it first when missing and we may.
set -euo pipefail
url="${1:-redis://127.0.0.1:6379/0}"
hostport="${url#redis://}"; hostport="${hostport%%/*}"; hostport="${hostport##*@}"
host="${hostport%%:*}"; port="${hostport##*:}"; [ "$port" = "$host" ] && port=6379

ping() { (exec 3<>"/dev/tcp/$host/$port" && printf 'PING\r\n' >&3 && timeout 2 head -c 5 <&3 | grep -q PONG) 2>/dev/null; }

ping && exit 0
if ! command -v redis-server >/dev/null; then
  echo "Redis is not installed; installing redis-server from Debian's packages..."
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else
    echo "error: redis-server missing and no root to install it; install Redis or set REDIS_URL" >&2; exit 1; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi
echo "Starting redis-server on $host:$port"
mkdir -p /tmp/thud-redis
redis-server --daemonize yes --bind "$host" --port "$port" --save "" --appendonly no \
  --dir /tmp/thud-redis --logfile /tmp/thud-redis/redis.log
for _ in $(seq 50); do ping && exit 0; sleep 0.1; done
echo "error: redis-server did not answer on $host:$port (see /tmp/thud-redis/redis.log)" >&2; exit 1
