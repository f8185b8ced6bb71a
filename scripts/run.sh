#!/usr/bin/env bash
# Start the whole system for a developer or a demo: migrate SQLite, load the demo
# tournament (skip with NO_DEMO=1), then the Celery clock, bots, analysis and default workers, beat and the web
# server (uvicorn serves pages and the SSE endpoint). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST="${HOST:-127.0.0.1}"; PORT="${PORT:-8000}"
export DJANGO_SETTINGS_MODULE=thud_site.settings

$PY manage.py migrate --noinput
if [ "${NO_DEMO:-0}" != 1 ]; then $PY manage.py load_demo; fi

pids=()
cleanup() { trap - INT TERM EXIT; kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup INT TERM EXIT

mkdir -p .run
# As in the Procfile: the clock has its own worker (queue "clock", fair scheduling,
# one task prefetched) at normal priority; everything else runs at nice 5, so pages
# and other tasks never starve an expiry of CPU. Beat runs exactly once.
.venv/bin/celery -A thud_site worker -Q clock -n clock@%h -O fair --prefetch-multiplier 1 -c 2 \
  --without-mingle --without-gossip --loglevel=INFO >.run/clock.log 2>&1 & pids+=($!)
# The computer's moves: one search at a time per process (games/bots.py).
nice -n 5 .venv/bin/celery -A thud_site worker -Q bots -n bots@%h -c 1 --prefetch-multiplier 1 \
  --loglevel=INFO >.run/bots.log 2>&1 & pids+=($!)
# Finished battles' analyses: their own worker, so a computer's move never waits behind
# one, and below the bots worker's priority (nice 10), so it never takes its core.
nice -n 10 .venv/bin/celery -A thud_site worker -Q analysis -n analysis@%h -c 1 --prefetch-multiplier 1 \
  --loglevel=INFO >.run/analysis.log 2>&1 & pids+=($!)
nice -n 5 .venv/bin/celery -A thud_site worker -Q default -n default@%h -c 1 --loglevel=INFO >.run/worker.log 2>&1 & pids+=($!)
.venv/bin/celery -A thud_site beat --loglevel=INFO --schedule .run/celerybeat-schedule >.run/beat.log 2>&1 & pids+=($!)
nice -n 5 .venv/bin/uvicorn front.asgi:application --host "$HOST" --port "$PORT" --log-level warning & pids+=($!)

cat <<MSG

  Thud Tournament Manager is running at http://$HOST:$PORT/
  Demo logins (password "thud-demo"): organiser, referee1, referee2, player1 … player8
  Logs of the Celery workers and beat: .run/clock.log, .run/bots.log, .run/analysis.log,
  .run/worker.log, .run/beat.log
  Press Ctrl-C to stop.

MSG
wait -n "${pids[@]}"
echo "A process exited; stopping the others." >&2
