"""The replay and its analysis for both games: Battaglia di Cavalli's replay renders every
ply with its own board and words, and its analysis; the link from a judged move shows the
better move on the board (``?best=1``) in both games; bad input is refused."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.analysis import runs as analysis_runs
from games.battles import play
from games.battles.starting import create_battles, start_battle
from games.cavalli import cells
from games.cavalli.core.notation import format_square
from games.engines import registry
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from tests.factories import make_match
from tests.games.analysis_helpers import MS, Tick, played_battle

pytestmark = pytest.mark.django_db
CAVALLI_PLIES = 8
#: A board on which the last legal move, 8 times over, does not end the game (on about
#: one random board in 125 it does by ply 8, and this test failed that often).
CAVALLI_SEED = 6


def url(battle, query="") -> str:
    return reverse("games:replay", args=[battle.pk]) + query


def cavalli_battle() -> tuple[Battle, list]:
    """A tournament Cavalli battle: ``CAVALLI_PLIES`` plies played through the workflow
    (each the last legal move: not the search's choice), then ended by agreement; and
    the positions after each ply, replayed here through the game."""
    match = make_match(variant="quickfire24", game="cavalli")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Battle.objects.filter(match=match).update(board_seed=CAVALLI_SEED)
    battle = start_battle(b1.pk, now=timezone.now())
    rules = battle.rules
    states = [rules.initial_state({"board_seed": battle.board_seed})]
    for _ in range(CAVALLI_PLIES):
        battle = Battle.objects.get(pk=battle.pk)
        move = rules.legal_moves(states[-1])[-1]
        play.submit_move(
            battle.pk,
            side=battle.side_to_move,
            version=battle.clock_version,
            notation=move,
            now=timezone.now(),
        )
        states.append(rules.apply(states[-1], move)[0])
    now = timezone.now()
    play.offer_end(battle.pk, side="white", now=now)
    play.accept_end(battle.pk, side="black", now=now)
    return Battle.objects.get(pk=battle.pk), states


def knights(html: str) -> dict[str, str]:
    """Each knight's square on the drawn board, by its accessible name."""
    found = re.findall(r'aria-label="(White|Black) knight on ([A-J]\d+)', html)
    return {side.lower(): square for side, square in found}


def test_a_cavalli_battle_has_a_replay_at_every_ply(client):
    battle, states = cavalli_battle()
    rules = registry.get("cavalli")
    html = client.get(reverse("games:battle", args=[battle.pk])).content.decode()
    assert url(battle) in html  # the battle page links its replay
    for ply, state in enumerate(states):
        r = client.get(url(battle, f"?ply={ply}"))
        assert r.status_code == 200
        html = r.content.decode()
        assert 'class="cavalli-board"' in html and 'class="thud-board"' not in html
        # The knights where the game put them, and the scores after this ply.
        expected = {
            side: format_square(square)
            for side, square in (("white", state.white), ("black", state.black))
            if square is not None
        }
        assert knights(html) == expected
        scores = rules.scores(state)
        assert f"White {scores['white']} – Black {scores['black']}" in " ".join(html.split())
        assert html.count('aria-current="step"') == (1 if ply else 0)
        struck = html.count('class="sq struck')
        assert struck == sum(1 for row in cells(state) for cell in row if not cell.usable)
    # Its own words: the sides are White and Black, never a Thud side.
    assert "Dwarfs" not in html and "Trolls" not in html
    assert client.get(reverse("games:diagram", args=[battle.pk]) + "?ply=3").status_code == 200
    # The page's link to the game record works for this game too.
    record = reverse("games:record", args=[battle.pk])
    assert record in html and client.get(record).status_code == 200


@pytest.fixture
def viewer(client):
    user = get_user_model().objects.create_user("viewer", password="pw-viewer-1234")
    client.force_login(user)
    return user


def analyse(battle, user) -> None:
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert (
        analysis_runs.run_analysis(
            battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
        )
        == BattleAnalysis.Status.DONE
    )


def test_a_cavalli_battles_analysis_is_shown_with_its_own_words(client, viewer):
    battle, _states = cavalli_battle()
    analyse(battle, viewer)
    rows = BattleAnalysis.objects.get(battle=battle).plies
    assert len(rows) == CAVALLI_PLIES
    thresholds = registry.get("cavalli").analysis_thresholds
    for row in rows:
        assert row["judgement"] == thresholds.judge(round(row["loss"] * 100))
    html = client.get(url(battle, "?ply=2")).content.decode()
    svg = re.search(r'<svg class="chart eval-chart".*?</svg>', html, re.S).group()
    assert svg.count('class="eval-point"') == CAVALLI_PLIES
    assert ">White ahead</text>" in svg and ">Black ahead</text>" in svg
    assert '<h3 id="analysis-side-1">White</h3>' in html or "The computer found no mistakes" in html


def test_the_better_move_is_shown_on_the_board(client, analysed_thud):
    # Ply 2, T G7-F6, hangs a troll; the better T G7-G4 xF5 takes the dwarf on F5.
    played = client.get(url(analysed_thud, "?ply=2")).content.decode()
    better = client.get(url(analysed_thud, "?ply=2&best=1")).content.decode()
    assert "The better move: T G7-G4 xF5" in better and "The better move" not in played
    assert "Last move: <strong>T G7-G4 xF5</strong>" in better
    assert "Last move: <strong>T G7-F6</strong>" in played
    # The board is the position after the better move: F5's dwarf gone, a troll on G4.
    assert 'aria-label="troll on G4"' in better and 'aria-label="troll on G4"' not in played
    assert 'aria-label="dwarf on F5"' in played and 'aria-label="dwarf on F5"' not in better
    assert 'href="?ply=2#replay"' in better  # back to the move played


def test_a_ply_without_a_better_move_says_so_and_shows_the_move_played(client, analysed_thud):
    html = client.get(url(analysed_thud, "?ply=3&best=1")).content.decode()
    assert "found no better move here" in html and "Last move: <strong>d F5-F6 xF6</strong>" in html


def test_a_bad_best_is_refused_with_a_message(client, analysed_thud):
    r = client.get(url(analysed_thud, "?ply=2&best=yes"))
    assert r.status_code == 400 and "best must be 0 or 1" in r.content.decode()


@pytest.fixture
def analysed_thud(viewer):
    battle = played_battle()
    analyse(battle, viewer)
    return battle


def test_the_worst_moves_come_first_with_their_links(client, analysed_thud):
    html = client.get(url(analysed_thud)).content.decode()
    section = html[html.index('id="analysis"') :]
    worst = section.index("Worst moves")
    assert worst < section.index('<svg class="chart eval-chart"')  # listed first
    trolls = section[section.index(">Trolls</h3>") :]
    assert re.search(
        r"<strong>1\.\.\. T G7-F6</strong> – blunder, \u22124(\.\d)?\. Better: T G7-G4 xF5 "
        r'<a href="\?ply=2&amp;best=1#replay">show it on the board</a>',
        trolls,
    )


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_the_replays_buttons_draw_their_icons_as_inline_svg(client, game):
    battle = played_battle() if game == "thud" else cavalli_battle()[0]
    html = client.get(url(battle, "?ply=1")).content.decode()
    nav = re.search(r'<nav class="replay-nav".*?</nav>', html, re.S).group()
    assert not re.search("[\u23ee\u23ed\u25c0\u25b6]", nav)  # no font glyphs
    links = re.findall(r"<a [^>]*>(.*?)</a>", nav, re.S)
    assert len(links) == 4
    for inner in links:
        assert re.search(r'<svg class="icon"[^>]*aria-hidden="true"', inner)
        assert re.sub(r"<svg.*?</svg>", "", inner, flags=re.S).strip()  # the word stays
