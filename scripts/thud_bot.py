#!/usr/bin/env python3
"""Connect an engine to a Thud Tournament Manager site as a bot, through API v1 only.

    THUD_TOKEN=thud_… python3 scripts/thud_bot.py --site https://SITE -- \\
        python -m games.thud bot --level 5

It uses nothing but the site's published API (``/api/v1/openapi.json``) and Python's
standard library: no module of the project, so it runs anywhere an engine does.

- **The engine** is any command that reads a position on stdin (the state's
  ``position``: for Thud the diagram of ``python -m games.thud``) and prints one move in
  the game's canonical notation on stdout: the project's own command-line protocol.
  ``--ms N`` (its time for this move) and ``--plies-left N`` (when a move limit ends the
  battle) are added to the command.
- **What it does** until stopped (Ctrl-C, or ``--max-battles``): it reads its events
  (``GET /stream/events``, NDJSON); it accepts each challenge to one of ``--games``;
  it plays each tournament match of a published round it is told of (``round``: an
  organiser entered the bot in a tournament that allows bots; ``POST
  /matches/{id}/play``); for each battle that starts for it (its challenge accepted, a
  battle waiting for it, battle 2 of a match) it says Ready, follows the battle's states (``GET
  /battles/{id}/stream``) and, on its turn, asks the engine and sends the move with the
  state's version. A refusal (a 409: the battle moved on meanwhile) is left to the next
  state; nothing is ever sent twice for one version.
- The token (``THUD_TOKEN`` or ``--token``) needs the ``bot`` or ``play`` scope: make it
  on the site's *Personal access tokens* page.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

#: A stream sends an empty line at least this often; silence twice as long is a lost link.
STREAM_TIMEOUT_S = 40
#: The engine's share of the time left to move, and the ceiling of one move's budget.
TIME_SHARE = 0.4
MAX_MOVE_MS = 3_000
MIN_MOVE_MS = 50


class Site:
    """API v1 of one site, as one token's user."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/") + "/api/v1"
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        """The status and the decoded JSON answer (a problem for a refusal)."""
        data = None if body is None else json.dumps(body).encode()
        headers = self.headers | ({"Content-Type": "application/json"} if data else {})
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")

    def lines(self, path: str) -> Iterator[dict | None]:
        """An NDJSON stream's objects as they come, None for an empty (keepalive) line."""
        request = urllib.request.Request(self.base + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT_S) as stream:
            for raw in stream:
                yield json.loads(raw) if raw.strip() else None


class Bot:
    def __init__(
        self,
        site: Site,
        engine: list[str],
        *,
        games: set[str],
        max_battles: int = 0,
        max_move_ms: int = MAX_MOVE_MS,
    ) -> None:
        self.site, self.engine, self.games = site, engine, games
        self.max_battles, self.max_move_ms = max_battles, max_move_ms
        self.playing: set[int] = set()
        self.finished = 0
        self.lock = threading.Lock()
        self.done = threading.Event()

    def log(self, text: str) -> None:
        print(text, flush=True)

    # Events -------------------------------------------------------------------------

    def run(self) -> None:
        threading.Thread(target=self._events, daemon=True).start()
        self.done.wait()

    def _events(self) -> None:
        while not self.done.is_set():
            try:
                listening = False
                for event in self.site.lines("/stream/events"):
                    if not listening:  # its first line: from now on, every event comes
                        listening = True
                        self.log("listening")
                        self._accept_waiting()  # what came while no stream was open
                    if event is None:
                        continue
                    self.log(f"event {event}")
                    if event["type"] == "challenge":
                        self._accept_waiting()
                    elif event["type"] == "gameStart" and event.get("battle"):
                        self.play(event["battle"])
                    elif event["type"] == "round" and event.get("match"):
                        self.play_match(event["match"])
            except (OSError, ValueError) as lost:  # a lost link, a restart: connect again
                self.log(f"events: {lost}; reconnecting")
                self.done.wait(1)

    def _accept_waiting(self) -> None:
        status, lists = self.site.call("GET", "/challenges")
        if status != 200:
            self.log(f"challenges: {status} {lists.get('detail')}")
            return
        for challenge in lists["received"]:
            if challenge["status"] != "open" or challenge["game"] not in self.games:
                continue
            status, answer = self.site.call("POST", f"/challenges/{challenge['id']}/accept")
            self.log(f"accept {challenge['id']}: {status}")
            if status == 200 and answer.get("battle"):
                self.play(answer["battle"])

    def play_match(self, match_id: int) -> None:
        """A tournament match of a published round: play it online (the match page's *Play
        online*), then each of its battles that waits for this bot or runs; battle 2 comes
        as a ``gameStart`` event once battle 1 is over."""
        status, match = self.site.call("POST", f"/matches/{match_id}/play")
        self.log(f"match {match_id}: {status}")
        if status != 200:
            self.log(f"match {match_id}: {match.get('detail')}")
            return
        for battle in match["battles"]:
            if battle["you"] and (battle["awaits_players"] or battle["status"] == "running"):
                self.play(battle["id"])

    # Battles ------------------------------------------------------------------------

    def play(self, battle_id: int) -> None:
        with self.lock:
            if battle_id in self.playing:
                return
            self.playing.add(battle_id)
        threading.Thread(target=self._battle, args=(battle_id,), daemon=True).start()

    def _battle(self, battle_id: int) -> None:
        path = f"/battles/{battle_id}"
        self.site.call("POST", f"{path}/ready")
        sent: set[int] = set()  # the versions a move was sent for
        last: dict = {}
        while not last or last["status"] != "finished":
            try:
                for line in self.site.lines(f"{path}/stream"):
                    if line is None:
                        continue
                    last = line["state"]
                    if self._my_turn(last) and last["version"] not in sent:
                        sent.add(last["version"])
                        self._move(path, last)
            except (OSError, ValueError) as lost:
                self.log(f"battle {battle_id}: {lost}; reconnecting")
                self.done.wait(1)
        self.log(f"battle {battle_id} finished: {last['winner'] or 'draw'}")
        with self.lock:
            self.finished += 1
            if self.max_battles and self.finished >= self.max_battles:
                self.done.set()

    @staticmethod
    def _my_turn(state: dict) -> bool:
        return state["status"] == "running" and state["side_to_move"] == state["you"]

    def _move(self, path: str, state: dict) -> None:
        move = self.ask_engine(state)
        if move is None:
            return
        status, answer = self.site.call(
            "POST", f"{path}/move", {"move": move, "version": state["version"]}
        )
        if status != 200:  # the battle moved on (409) or the engine erred (422)
            self.log(f"{path} move {move}: {status} {answer.get('detail')}")

    def ask_engine(self, state: dict) -> str | None:
        clock = state["clock"]
        left = None
        if state["timed"] and clock["ends_ms"] is not None:
            left = clock["ends_ms"] - state["server_now_ms"]
        ms = self.max_move_ms if left is None else int(left * TIME_SHARE)
        command = [*self.engine, "--ms", str(max(MIN_MOVE_MS, min(self.max_move_ms, ms)))]
        if state["max_plies"]:
            command += ["--plies-left", str(max(1, state["max_plies"] - state["ply"]))]
        done = subprocess.run(
            command, input=state["position"], capture_output=True, text=True, check=False
        )
        if done.returncode != 0 or not done.stdout.strip():
            self.log(f"engine failed ({done.returncode}): {done.stderr.strip()}")
            return None
        return done.stdout.strip().splitlines()[0].strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True, help="the site's address, https://…")
    parser.add_argument("--token", default=os.environ.get("THUD_TOKEN", ""))
    parser.add_argument("--games", default="thud", help="games to accept, comma-separated")
    parser.add_argument("--max-battles", type=int, default=0, help="stop after N (0: never)")
    parser.add_argument(
        "--max-move-ms", type=int, default=MAX_MOVE_MS, help="the most an engine thinks"
    )
    parser.add_argument("engine", nargs="+", help="the engine's command, after --")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token is needed: --token or THUD_TOKEN")
    engine = args.engine if len(args.engine) > 1 else shlex.split(args.engine[0])
    bot = Bot(
        Site(args.site, args.token),
        engine,
        games=set(args.games.split(",")),
        max_battles=args.max_battles,
        max_move_ms=args.max_move_ms,
    )
    signal.signal(signal.SIGTERM, lambda *_: bot.done.set())
    try:
        bot.run()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
