"""What the hall screen shows: the current round's pairings (by table, and by name A–Z),
the standings, the organiser's announcement and the round timer, cut into slides that
fit a projector without scrolling (``ROWS`` lines each).

The live battles of the round are the games' to show (``games.views_hall``); this module
only reads tournament tables. ``hall_fingerprint`` changes whenever anything shown here
changes, so the live stream can tell the screen to fetch its slides again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.rounds.bracket import load_bracket
from tournaments.rounds.reads import load_standings, match_score, standings_fingerprint
from tournaments.rules import timer
from tournaments.standings.table import StandingRow

#: Lines per slide: at 1080p a line is about 64 px high (names at 40 px).
ROWS = 12


@dataclass(frozen=True)
class ByName:
    """One player's line of the pairings by name."""

    name: str
    table: int
    opponent: str
    first_side: bool  # has the game's first side in battle 1 (the second in battle 2)
    bye: bool = False


def chunks(items: list, size: int = ROWS) -> list[list]:
    """``items`` in slides of ``size`` lines; no items, no slide.

    >>> [len(c) for c in chunks(list(range(25)), 12)]
    [12, 12, 1]
    >>> chunks([], 12)
    []
    """
    return [items[i : i + size] for i in range(0, len(items), size)]


def current_round(tournament: Tournament) -> Round | None:
    """The latest published or finished round (``None`` before round 1 is published)."""
    return tournament.round_set.counted().order_by("-number").first()


def by_name(matches: list[Match]) -> list[ByName]:
    """Every paired player, A–Z (case-insensitive), with their table, opponent and side."""
    lines = []
    for m in matches:
        a = m.player_a.player.name
        if m.player_b is None:  # a bye: no opponent, no side
            lines.append(ByName(a, m.table, "", True, bye=True))
            continue
        b = m.player_b.player.name
        lines.append(ByName(a, m.table, b, True))
        lines.append(ByName(b, m.table, a, False))
    return sorted(lines, key=lambda line: (line.name.casefold(), line.table))


def champions(standings: list[StandingRow]) -> list[str]:
    """The names ranked first in the final standings (more than one when tied)."""
    return [row.name for row in standings if row.rank == 1]


def _champions(tournament: Tournament, standings: list[StandingRow]) -> list[str]:
    if tournament.has_knockout:  # the final's winner, whatever the swiss standings say
        loaded = load_bracket(tournament)
        champion = loaded.bracket.champion
        if champion is not None:
            return [loaded.entries[champion].player.name]
    return champions(standings)


def final_slides(tournament: Tournament) -> dict:
    """A closed tournament's screen: the champion and the final standings, and no round,
    pairings or timer any more (nobody has a table to find)."""
    standings = load_standings(tournament)
    return {
        "closed": True,
        "round": None,
        "champions": _champions(tournament, standings),
        "by_table": [],
        "by_name": [],
        "standings": chunks(standings),
        "timer": None,
        "announcement": tournament.announcement,
    }


def hall_slides(tournament: Tournament, *, now: datetime) -> dict:
    """Everything the hall screen shows, as of ``now``, cut into slides."""
    if tournament.status == Tournament.Status.FINISHED:
        return final_slides(tournament)
    round_ = current_round(tournament)
    matches: list[Match] = []
    if round_ is not None:
        matches = list(
            round_.matches.select_related(
                "player_a__player", "player_b__player", "confirmed_version"
            ).order_by("table")
        )
    standings = load_standings(tournament) if round_ is not None else []
    return {
        "closed": False,
        "round": round_,
        "by_table": chunks([(m, match_score(m)) for m in matches]),
        "by_name": chunks(by_name(matches)),
        "standings": chunks(standings),
        "timer": _timer(round_, now),
        "announcement": tournament.announcement,
    }


def _timer(round_: Round | None, now: datetime) -> timer.TimerStatus | None:
    if round_ is None:
        return None
    return timer.status(round_.timer_started_at, round_.timer_minutes, now)


def hall_fingerprint(tournament: Tournament) -> str:
    """Changes when the slides' content does: results and rounds (the standings'
    fingerprint), the announcement, the tournament closing, the round timer, names, and
    whatever else bumps the state version (the slides' cache key, so a screen told to
    refetch gets the new slides; two small queries)."""
    fresh = Tournament.objects.only("announcement", "status", "state_version").get(pk=tournament.pk)
    round_ = current_round(tournament)
    parts = (
        standings_fingerprint(tournament),
        fresh.announcement,
        fresh.status,
        fresh.state_version,
        round_ and (round_.pk, round_.status, round_.timer_started_at, round_.timer_minutes),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
