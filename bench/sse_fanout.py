"""The cost of handing one battle's published state to its watchers, as the SSE hub does.

Run from the repository root: ``python bench/sse_fanout.py [watchers]`` (default 2,000).
Each round publishes one state (a real payload's size) to ``watchers`` queues of one
battle and frames it for each watcher's stream, two ways: as the hub does now (parsed once,
framed once: ``Published``) and as it did before (every watcher's stream serialising the
state itself). Prints the CPU microseconds per watcher and per state of each, medians of
several runs, and a JSON line. CPU time (``time.process_time``), so a busy machine inflates
it less than wall time; still, say what else ran.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")
django.setup()

from games.live import stream as live  # noqa: E402

STATES = 50
RUNS = 7
#: The size of a real state: clocks, phase, ply, the touched piece, the offer.
STATE = {
    "battle": 123456,
    "version": 0,
    "status": "running",
    "phase": "think",
    "to_move": "dwarfs",
    "ply": 17,
    "remaining_ms": {"dwarfs": 14250, "trolls": 15000},
    "deadline": 1764857123456,
    "touched": "",
    "offer": "",
    "server_ms": 1764857100000,
}


def one_run(watchers: int, *, shared: bool) -> float:
    """CPU seconds for STATES states, each to every watcher and framed by each."""

    async def run() -> float:
        hub = live._Hub()
        hub.task = asyncio.get_running_loop().create_future()  # no real subscription
        queues = [hub.register(1) for _ in range(watchers)]
        for queue in queues:
            queue._maxsize = STATES + 1  # measure delivery, not the overflow
        started = time.process_time()
        for version in range(STATES):
            raw = json.dumps(STATE | {"version": version}).encode()
            if shared:
                hub.dispatch(b"1", raw)
            else:  # before: parsed once, then every stream serialised its own copy
                data = json.loads(raw)
                for queue in queues:
                    queue.put_nowait(data)
            for queue in queues:
                item = queue.get_nowait()
                frame = live.format_sse(item)  # a plain dict before: serialised here
                assert frame.startswith(b"event: state")
        return time.process_time() - started

    return asyncio.run(run())


def main() -> None:
    watchers = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    figures = {}
    for name, shared in (("before", False), ("now", True)):
        runs = [one_run(watchers, shared=shared) for _ in range(RUNS)]
        per_watcher_us = statistics.median(runs) / (STATES * watchers) * 1e6
        per_state_ms = statistics.median(runs) / STATES * 1e3
        figures[name] = {"us_per_watcher": round(per_watcher_us, 2), "ms_per_state": per_state_ms}
        print(
            f"{name:>6}: {per_watcher_us:6.2f} µs CPU per watcher, "
            f"{per_state_ms:6.2f} ms per state to {watchers} watchers"
        )
    print(json.dumps({"watchers": watchers, **figures}))


if __name__ == "__main__":
    main()
