"""Tiny on the site: the third game, registered by the test settings only
(``tests/settings.py``: one line in ``GAMES`` and its own folders), played through every
feature a game meets, with nothing outside its package written for it.

- a casual quickfire battle between two people, by the board's buttons, whose clock the
  real clock worker runs out (a forfeited turn), then a battle against the computer (the
  real bots worker answers every move) and its analysis (the real analysis worker);
- a tournament of four: a match of two battles played online and one entered by a
  referee and confirmed by another, by the referee pages; its standings; and its archive
  exported, read back (every move re-played by Tiny's engine) and imported as a copy that
  reads the same on every page, file and API answer.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.starting import create_battles, start_battle
from games.engines import registry
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from play import challenges, computer
from tests.factories import UserFactory
from tests.games.tiny.game import TinyGame
from tests.processes import wait_for
from tests.tournaments.archive.dump import dump
from tournaments.archive.document import build_document, dumps
from tournaments.archive.validation import read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.tournament import Entry, Tournament
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

TINY = TinyGame()
GOLD, SILVER = (side.key for side in TINY.sides)
#: The copy notice on an imported copy's pages (as tests/tournaments/archive/test_round_trip).
COPY_NOTICE = re.compile(r' ?<div class="warnings copy-notice" role="note">.*?</div>')


def test_the_test_settings_register_tiny_beside_the_built_in_games():
    assert [game.key for game in registry.all_games()] == ["thud", "cavalli", "tiny"]
    assert isinstance(registry.get("tiny"), TinyGame)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def version(battle_id: int) -> str:
    return str(Battle.objects.get(pk=battle_id).clock_version)


def play_by_the_board(client: Client, battle_id: int, notation: str) -> None:
    """One move as a player makes it: the pawn's button, then the target square's."""
    src, dst = re.split(r"[-x]", notation)
    ply = Battle.objects.get(pk=battle_id).ply
    page = client.get(reverse("games:battle", args=[battle_id])).text
    assert f'name="square" value="{src}"' in page, (notation, "no button for the pawn")
    touched = client.post(
        reverse("games:touch", args=[battle_id]),
        {"square": src, "version": version(battle_id)},
        follow=True,
    )
    assert touched.status_code == 200 and f'name="to" value="{dst}"' in touched.text, notation
    moved = client.post(
        reverse("games:move", args=[battle_id]),
        {"from": src, "to": dst, "version": version(battle_id)},
        follow=True,
    )
    assert moved.status_code == 200, (notation, moved.text[:300])
    assert Battle.objects.get(pk=battle_id).ply > ply, (notation, "not played")


def first_legal(battle: Battle) -> str:
    return TINY.legal_moves(TINY.deserialise(battle.board))[0]


@pytest.mark.clock
@pytest.mark.django_db(transaction=True)
def test_casual_tiny_on_the_clock_against_a_person_then_the_computer_then_analysed(
    cluster_factory,
):
    cluster_factory(bots=True, analysis=True)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    as_alice, as_bob = logged_in(alice), logged_in(bob)

    # A quickfire challenge in Tiny, accepted; the clock scaled so a turn runs out in 4 s.
    c = challenges.create_challenge(
        by=alice,
        opponent=bob,
        game="tiny",
        timing="quickfire",
        first="challenger",
        move_limit=24,
        now=timezone.now(),
    )
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    Battle.objects.filter(pk=battle.pk).update(think_ms=3_000, move_ms=1_000)
    for client in (as_alice, as_bob):
        assert client.post(reverse("games:ready", args=[battle.pk])).status_code in (200, 302)
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RUNNING
    page = as_alice.get(reverse("games:battle", args=[battle.pk])).text
    assert "gold pawn on A1" in page and "css/games/tiny" in page

    play_by_the_board(as_alice, battle.pk, "B1-B2")
    # Bob does not move: the clock worker forfeits his turn.
    wait_for(
        lambda: Battle.objects.get(pk=battle.pk).side_to_move == GOLD or None,
        timeout=30,
        what="the clock worker to forfeit silver's turn",
    )
    expiry = ClockEvent.objects.get(battle_id=battle.pk, kind=clock.TURN_EXPIRED)
    assert expiry.via in {ClockEvent.Via.TIMER, ClockEvent.Via.SWEEP}
    players = {GOLD: as_alice, SILVER: as_bob}
    while not (b := Battle.objects.get(pk=battle.pk)).is_finished:
        play_by_the_board(players[b.side_to_move], battle.pk, first_legal(b))
    # The result is the engine's for the moves played and the forfeited turn.
    moves = list(Move.objects.filter(battle_id=battle.pk).order_by("ply"))
    assert moves[1].kind == "forfeit"
    state = TINY.initial_state()
    for m in moves:
        state = TINY.pass_turn(state) if m.kind == "forfeit" else TINY.apply(state, m.notation)[0]
    assert TINY.serialise(state) == b.board and b.scores == TINY.scores(state)
    assert b.finished_reason and b.winner in {GOLD, SILVER, ""}

    # Against the computer, untimed: every move of the computer is the bots worker's.
    game = computer.start(
        by=alice,
        game="tiny",
        level=3,
        side=computer.YOU_FIRST,
        time_control=computer.UNTIMED,
        now=timezone.now(),
    )
    while not (b := Battle.objects.get(pk=game.pk)).is_finished:
        ply = b.ply
        play_by_the_board(as_alice, game.pk, first_legal(b))
        wait_for(
            lambda ply=ply: (
                (x := Battle.objects.get(pk=game.pk)).is_finished or x.ply >= ply + 2 or None
            ),
            timeout=30,
            what="the computer's move",
        )
    computer_moves = Move.objects.filter(battle_id=game.pk, ply__gte=1, ply__lt=b.ply).filter(
        ply__in=range(1, b.ply, 2)
    )
    assert computer_moves.count() >= 1 and all(m.notation for m in computer_moves)

    # Its analysis, asked from the replay page and made by the analysis worker.
    asked = as_alice.post(reverse("games:analyse", args=[game.pk]))
    assert asked.status_code == 302
    done = wait_for(
        lambda: BattleAnalysis.objects.filter(
            battle_id=game.pk, status=BattleAnalysis.Status.DONE
        ).first(),
        timeout=60,
        what="the analysis worker",
    )
    assert len(done.plies) == b.ply
    replay = as_alice.get(reverse("games:replay", args=[game.pk]))
    assert replay.status_code == 200 and 'id="analysis"' in replay.text


def referee_enters(client: Client, t: Tournament, match, numbers: tuple[int, ...]) -> None:
    fields = ("battle1_first", "battle1_second", "battle2_first", "battle2_second")
    page = client.get(reverse("referee_match", args=[t.slug, match.pk])).text
    names = (match.player_a.player.name, match.player_b.player.name)
    # Tiny's own labels on the referee's form, naming the players.
    assert f"Battle 1 gold points ({names[0]})" in page
    assert f"Battle 2 silver points ({names[0]})" in page
    match.refresh_from_db()
    data = dict(zip(fields, map(str, numbers), strict=True))
    data |= {"lock_version": str(match.lock_version), "key": str(uuid.uuid4())}
    entered = client.post(reverse("referee_result", args=[t.slug, match.pk]), data)
    assert entered.status_code in (200, 302), entered.text[:500]


def referee_confirms(client: Client, t: Tournament, match) -> None:
    match.refresh_from_db()
    version = ResultVersion.objects.filter(match=match).latest("number")
    data = {
        "version_id": str(version.pk),
        "lock_version": str(match.lock_version),
        "key": str(uuid.uuid4()),
    }
    confirmed = client.post(reverse("referee_result_confirm", args=[t.slug, match.pk]), data)
    assert confirmed.status_code in (200, 302), confirmed.text[:500]


@pytest.mark.django_db
def test_a_tiny_tournament_match_its_standings_and_its_archive_round_trip():
    User = get_user_model()
    org, ref1, ref2 = (User.objects.create_user(n) for n in ("tiny-org", "tiny-ref1", "tiny-ref2"))
    t = Tournament(name="Tiny Open", slug="tiny-open", owner=org, game="tiny", rounds=1)
    t.full_clean()  # Tiny is a choice of the tournament's game (read from the registry)
    t.save()
    t.referees.add(ref1, ref2)
    for seed in range(1, 5):
        player = Player.objects.create(name=f"Pawn {seed}", rating=1500 + seed)
        Entry.objects.create(tournament=t, player=player, seed=seed, checked_in=True)
    round_ = publish_round(pair_next_round(t, by=org, now=timezone.now()), now=timezone.now())
    online, by_referees = round_.matches.order_by("table")

    # Table 1 online: both battles played to their end; the engine records the result.
    for battle in create_battles(online, mode=Battle.Mode.ONLINE, now=timezone.now()):
        if Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING:
            start_battle(battle.pk, now=timezone.now())  # battle 2 starts when 1 ends
        while not (b := Battle.objects.get(pk=battle.pk)).is_finished:
            submit_move(
                b.pk,
                side=b.side_to_move,
                version=b.clock_version,
                notation=first_legal(b),
                now=timezone.now(),
            )
    online.refresh_from_db()
    assert online.confirmed_version is not None

    # Table 2 over the board: entered by one referee, confirmed by the other.
    referee_enters(logged_in(ref1), t, by_referees, (5, 1, 2, 4))
    referee_confirms(logged_in(ref2), t, by_referees)
    by_referees.refresh_from_db()
    assert by_referees.confirmed_version is not None

    # The standings: player A of table 2 scored 5+4 against 1+2 and won the match.
    standings = Client().get(reverse("api_standings", args=[t.slug])).json()
    rows = standings["standings"] if isinstance(standings, dict) else standings
    winner = by_referees.player_a.player.name
    loser = by_referees.player_b.player.name
    names = [row["name"] for row in rows]
    assert names.index(winner) < names.index(loser)
    page = Client().get(reverse("standings", args=[t.slug]))
    assert page.status_code == 200 and winner in page.text

    # The archive: exported, read back (its moves re-played by Tiny's engine), imported.
    t.refresh_from_db()
    original = dump(t.slug)
    document = read_archive(dumps(build_document(t, now=timezone.now())))
    assert document["tournament"]["game"] == "tiny"
    copy = import_archive(document, slug="tiny-copy", by=org, now=timezone.now())
    assert copy.game == "tiny" and copy.copy_of_id == t.pk
    returned = dump("tiny-copy")
    pages = {name for name in original if name.endswith("_page")}
    for name in pages:
        assert COPY_NOTICE.sub("", returned[name]) == original[name], name
    for name in set(original) - {"player_stats", "tournament_row", "site_stats"} - pages:
        assert returned[name] == original[name], name
    assert len(original["battle"]) == 2 and all(b["moves"] for b in original["battle"])
