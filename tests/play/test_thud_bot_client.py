"""The reference client (scripts/thud_bot.py) against the real site: the project's own
level-1 and level-5 engines connected as two bot accounts play a rated quickfire match
through API v1 alone (uvicorn, a clock worker and beat, the real Redis), and the match's
result and the engine league's ratings follow from the battles as the site scored them (the
people's ratings never see it)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.utils import timezone

from accounts import tokens
from games.models.battle import Battle
from games.models.history import Move
from play import bots
from play.league import league
from play.models import CasualMatch
from tests.factories import UserFactory
from tournaments.models.ratings import SiteRating
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.organising.bots import enter_bot
from tournaments.rounds.play import publish_round

CLIENT = Path(settings.BASE_DIR) / "scripts" / "thud_bot.py"
MATCH_S = 240


def bot_account(name: str) -> tuple:
    user = UserFactory(username=name)
    bots.become_bot(user, now=timezone.now())
    return user, tokens.make_token(user, name="engine", scopes=("bot",), now=timezone.now()).plain


def client(site: str, token: str, level: int, log: Path) -> subprocess.Popen:
    engine = [sys.executable, "-m", "games.thud", "bot", "--level", str(level)]
    argv = [sys.executable, str(CLIENT), "--site", site, "--token", token, "--max-battles", "2"]
    return subprocess.Popen(
        [*argv, "--max-move-ms", "150", "--", *engine],
        cwd=settings.BASE_DIR,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def wait_for(log: Path, text: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while text not in log.read_text():
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < end, f"no {text!r} in {log.read_text()}"
        time.sleep(0.1)


@contextlib.contextmanager
def two_clients(site: str, tmp_path: Path, strong_token: str, weak_token: str):
    """The level-5 and level-1 bots' clients, started and listening; yields their logs and
    ``finish``, which waits for both to end well. Killed on the way out if still running."""
    logs = [tmp_path / "level5.log", tmp_path / "level1.log"]
    procs = [client(site, strong_token, 5, logs[0]), client(site, weak_token, 1, logs[1])]

    def finish() -> None:
        for proc, log in zip(procs, logs, strict=True):
            assert proc.wait(timeout=MATCH_S) == 0, log.read_text()

    try:
        for proc, log in zip(procs, logs, strict=True):
            wait_for(log, "listening", proc)
        yield logs, finish
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.clock
def test_two_engines_play_a_rated_quickfire_match_through_the_reference_client(server, tmp_path):
    (strong, strong_token), (weak, weak_token) = bot_account("level5"), bot_account("level1")
    with two_clients(server, tmp_path, strong_token, weak_token) as (logs, finish):
        # The strong bot challenges the weak one; the weak one's client accepts it.
        made = httpx.post(
            f"{server}/api/v1/challenges",
            headers={"Authorization": f"Bearer {strong_token}"},
            json={
                "opponent": "level1",
                "game": "thud",
                "timing": "quickfire",
                "rated_match": True,
                "first": "challenger",
            },
            timeout=30,
        )
        assert made.status_code == 201, made.text
        finish()

    match = CasualMatch.objects.get()
    assert (match.status, match.rated) == ("ended", True)
    assert {match.user_a_id, match.user_b_id} == {strong.pk, weak.pk}
    battles = [match.battle_1, match.battle_2]
    differential_a = 0
    for battle in battles:
        assert battle.status == Battle.Status.FINISHED and battle.ply > 0
        # Played by the engines: no turn forfeited.
        assert (battle.forfeits_first, battle.forfeits_second) == (0, 0)
        # The moves stored, replayed by the engine here, give the stored board and scores.
        game = battle.rules
        position = game.initial_state()
        for move in Move.objects.filter(battle=battle).order_by("ply"):
            position, _info = game.apply(position, move.notation)
        assert game.serialise(position) == battle.board
        assert game.scores(position) == battle.scores
        a_side = game.sides[0 if battle.first_user_id == match.user_a_id else 1].key
        b_side = next(side.key for side in game.sides if side.key != a_side)
        differential_a += battle.scores[a_side] - battle.scores[b_side]
    # The match is the two battles' summed differential, for user A.
    assert match.differential_a == differential_a
    # Two bots' rated match: in the bots' own pool, not the people's.
    assert not SiteRating.objects.filter(game="thud", player__user__in=[strong, weak]).exists()
    lines = league("thud", now=timezone.now()).lines
    assert {line.user_id for line in lines} == {strong.pk, weak.pk}
    assert all(line.played == 1 and line.rating.rd < 350 for line in lines)
    for log in logs:
        text = log.read_text()
        assert "finished" in text and "engine failed" not in text, text


@pytest.mark.clock
def test_two_bots_entered_in_a_tournament_play_their_round_through_the_reference_client(
    server, tmp_path
):
    """The organiser publishes round 1; each bot's client is told (a ``round`` event),
    plays the match online (``POST /matches/{id}/play``) and both battles; the match's
    result is the engine-verified one, in the standings."""
    (strong, strong_token), (weak, weak_token) = bot_account("level5"), bot_account("level1")
    organiser = UserFactory(username="bot-organiser")
    tournament = Tournament.objects.create(
        name="Engine Open", slug="engine-open", owner=organiser, variant="timed24", allow_bots=True
    )
    # Entered by its organiser: each bot as its own player.
    entries = [enter_bot(tournament, username=bot.username) for bot in (strong, weak)]
    assert [e.player.user for e in entries] == [strong, weak]
    round_1 = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(round=round_1, table=1, player_a=entries[0], player_b=entries[1])
    with two_clients(server, tmp_path, strong_token, weak_token) as (logs, finish):
        publish_round(round_1, now=timezone.now())
        finish()

    battles = list(Battle.objects.filter(match=match).order_by("number"))
    assert [(b.number, b.mode, b.status) for b in battles] == [
        (1, "online", "finished"),
        (2, "online", "finished"),
    ]
    assert all(b.ply > 0 and (b.forfeits_first, b.forfeits_second) == (0, 0) for b in battles)
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.CONFIRMED
    # Player A (level 5) has the first side in battle 1, the second in battle 2.
    first, second = (side.key for side in battles[0].rules.sides)
    differential_a = (
        battles[0].scores[first]
        - battles[0].scores[second]
        + battles[1].scores[second]
        - battles[1].scores[first]
    )
    standings = httpx.get(f"{server}/api/v1/tournaments/engine-open/standings", timeout=30).json()[
        "items"
    ]
    by_name = {line["name"]: line for line in standings}
    assert by_name["level5"]["differential"] == differential_a
    assert by_name["level1"]["differential"] == -differential_a
    assert all(line["played"] == 1 for line in standings)
    for log in logs:
        text = log.read_text()
        assert f"match {match.pk}: 200" in text and "engine failed" not in text, text
