"""Tiny's result scale in tournaments' pure rooms: accepted by the scale check, and a
match of two battles (sides swapped) scored and ranked. No database, no games app: the
scale is offered to ``tournaments.rules.scales`` here, for the test only."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.games.tiny.game import TinyGame
from tournaments.rules import scales
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.rules.scales import WORDING_KEYS, check_scale
from tournaments.standings.scoring import score
from tournaments.standings.table import EntrantRecord, MatchRecord, compute_standings

ROOT = Path(__file__).resolve().parents[3]
GAME = TinyGame()
SCALE = GAME.tournament_scale


@pytest.fixture
def offered(monkeypatch):
    """Tiny's scale offered, as GamesConfig offers the engines' (undone after the test)."""
    monkeypatch.setattr(scales, "_registered", dict(scales.registered()))
    scales.register([SCALE])
    return SCALE


def still() -> float:
    return 0.0


def battle(gold_level: int, silver_level: int, seed: int) -> tuple[int, int]:
    """A battle between two computer levels: its result numbers (gold, silver)."""
    state, ply = GAME.initial_state(), 0
    while GAME.outcome(state) is None:
        level = gold_level if ply % 2 == 0 else silver_level
        move = GAME.bot_move(state, level=level, seed=seed + ply, budget_ms=100, clock=still)
        state, ply = GAME.apply(state, move)[0], ply + 1
    return GAME.result_numbers(state)


def test_the_scale_is_accepted_by_the_tournaments_check():
    check_scale(SCALE)
    assert set(SCALE.wording) == set(WORDING_KEYS)
    assert SCALE.limits == (9, 9) and SCALE.weights == (1, 1)
    assert scales.columns(SCALE) == (
        "battle1_gold",
        "battle1_silver",
        "battle2_gold",
        "battle2_silver",
    )
    assert scales.api_key(SCALE, "avg_{each}_{numbers}", 1) == "avg_silver_points"


def test_a_short_wording_or_a_limit_beyond_the_database_is_refused():
    with pytest.raises(ValueError, match="lacks"):
        check_scale(replace(SCALE, wording={}))
    with pytest.raises(ValueError, match="limits"):
        check_scale(replace(SCALE, limits=(10_000, 9)))


def test_a_match_of_two_battles_is_scored(offered):
    # Player A is level 5: gold in battle 1, silver in battle 2; B is level 1.
    first = battle(5, 1, seed=1)
    second = battle(1, 5, seed=2)
    result = MatchResult.from_battles(first, second, game="tiny")
    s = score(result)
    assert s.a_points == (first[0], second[1])
    assert s.b_points == (first[1], second[0])
    assert s.differential == first[0] + second[1] - first[1] - second[0]
    assert s.outcome in ("a", "draw")  # the full search never loses
    assert s.battles_won_b == 0


def test_a_result_beyond_the_scale_is_refused(offered):
    MatchResult(9, 0, 0, 9, game="tiny")
    with pytest.raises(MatchResultError) as caught:
        MatchResult.parse(["10", "0", "3", "3"], game="tiny")
    assert caught.value.field == "battle1_first"


def test_standings_rank_the_players_by_their_tiny_matches(offered):
    entrants = [EntrantRecord(1, "Ann", 1), EntrantRecord(2, "Bo", 2), EntrantRecord(3, "Cy", 3)]
    matches = [
        MatchRecord(1, 1, 2, MatchResult(3, 1, 1, 4, game="tiny")),  # Ann 7 - 2 Bo
        MatchRecord(1, 3, None),  # Cy's bye
        MatchRecord(2, 3, 1, MatchResult(2, 2, 3, 3, game="tiny")),  # a draw
    ]
    rows = compute_standings(entrants, matches)
    assert [(r.name, r.match_points, r.differential) for r in rows] == [
        ("Ann", 3, 5),
        ("Cy", 3, 0),
        ("Bo", 0, -5),
    ]


SCRIPT = """
from tests.games.tiny.game import TinyGame
from tournaments.rules import scales
from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import score
import sys
scales.register([TinyGame().tournament_scale])
s = score(MatchResult(4, 2, 1, 5, game="tiny"))
assert (s.differential, s.outcome) == (6, "a"), s
assert not [m for m in sys.modules if m.startswith(("django", "celery"))]
print("pure")
"""


def test_the_game_and_the_scoring_need_no_django_settings():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"
