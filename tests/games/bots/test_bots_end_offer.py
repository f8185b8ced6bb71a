"""The computer's answer to an offer to end the battle (``games.bots.moves.answer_end``, the
task ``bots.answer_end``): queued on the bots queue on the offer's commit, whoever's turn
it is; run here against the real database and the real search (no worker: the task
function is called directly; ``tests/games/live/test_bots_end_offer_worker.py`` runs it on
a real bots worker)."""

from __future__ import annotations

import base64
import json

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import tasks
from games.battles.play import offer_end
from games.battles.starting import create_casual_battle
from games.bots import moves as bots
from games.engines import registry
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.thud import Position

pytestmark = pytest.mark.django_db


def computer_battle(game: str, *, computer_side: int, level: int = 1) -> Battle:
    human = get_user_model().objects.create_user(f"human{Battle.objects.count()}")
    computer = bots.computer_user()
    first, second = (computer, human) if computer_side == 0 else (human, computer)
    rules = registry.get(game)
    return create_casual_battle(
        game=game,
        first=first,
        second=second,
        timed=False,
        board_seed=7,
        bot_level=level,
        bot_side=rules.sides[computer_side].key,
        now=timezone.now(),
    )


def set_position(battle: Battle, compact: str) -> Battle:
    """A Thud position set by hand (nothing queued: no clock write is signalled)."""
    rules = battle.rules
    position = Position.from_compact(compact)
    Battle.objects.filter(pk=battle.pk).update(
        board=rules.serialise(position),
        side_to_move=position.side_to_move.value,
        **rules.row_fields(position),
    )
    return Battle.objects.get(pk=battle.pk)


def queued(client, name: str) -> list[tuple[str, list]]:
    found = []
    for raw in client.lrange(name, 0, -1):
        message = json.loads(raw)
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        found.append((message["headers"]["task"], args))
    return found


def test_an_offer_to_the_computer_queues_its_answer_on_the_players_turn_too(
    bots_queue, django_capture_on_commit_callbacks
):
    client, name = bots_queue
    battle = computer_battle("thud", computer_side=1)  # the player has the dwarfs: their turn
    with django_capture_on_commit_callbacks(execute=True):
        offer_end(battle.pk, side="dwarf", now=timezone.now())
    assert queued(client, name) == [("bots.answer_end", [battle.pk, battle.clock_version])]


def test_an_offer_between_people_queues_nothing(bots_queue, django_capture_on_commit_callbacks):
    client, name = bots_queue
    users = [get_user_model().objects.create_user(n) for n in ("ann", "bea")]
    battle = create_casual_battle(game="thud", first=users[0], second=users[1], now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        offer_end(battle.pk, side="dwarf", now=timezone.now())
    assert queued(client, name) == []


def test_the_computer_losing_badly_accepts_at_once(bots_queue):
    # The computer has one dwarf left (1 – 4); the player's troll takes it next (0 – 4).
    battle = set_position(computer_battle("thud", computer_side=0), "troll dF5,TH5")
    offer_end(battle.pk, side="troll", now=timezone.now())
    assert tasks.bot_answer_end(battle.pk, battle.clock_version) == "accepted"
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.status, stored.finished_reason, stored.winner) == (
        "finished",
        "agreement",
        "troll",
    )
    assert stored.scores == {"dwarf": 1, "troll": 4}
    assert tasks.bot_answer_end(battle.pk, battle.clock_version) == ""  # a duplicate: nothing


def test_the_computer_expecting_better_declines_and_the_page_says_so(bots_queue, client):
    # The start, the player (dwarfs) to move: the search gives the trolls the edge.
    battle = computer_battle("thud", computer_side=1)
    offer_end(battle.pk, side="dwarf", now=timezone.now())
    assert tasks.bot_answer_end(battle.pk, battle.clock_version) == "declined"
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.status, stored.end_offered_by) == ("running", "")
    assert stored.clock_version == battle.clock_version  # a move in flight still lands
    event = ClockEvent.objects.get(battle=battle, kind="end_declined")
    assert event.detail == bots.DECLINED
    client.force_login(battle.first_user)
    page = client.get(f"/battles/{battle.pk}/").text
    assert "The computer declined to end the battle: it expects to do better." in page
    assert tasks.bot_answer_end(battle.pk, battle.clock_version) == ""  # nothing to answer


def test_a_withdrawn_offer_gets_no_answer(bots_queue):
    battle = set_position(computer_battle("thud", computer_side=0), "troll dF5,TH5")
    offer_end(battle.pk, side="troll", now=timezone.now())
    Battle.objects.filter(pk=battle.pk).update(end_offered_by="")
    assert tasks.bot_answer_end(battle.pk, battle.clock_version) == ""
    assert Battle.objects.get(pk=battle.pk).status == "running"


def test_the_computer_answers_in_cavalli_too(bots_queue):
    battle = computer_battle("cavalli", computer_side=1)
    offer_end(battle.pk, side="white", now=timezone.now())
    answer = tasks.bot_answer_end(battle.pk, battle.clock_version)
    assert answer in ("accepted", "declined")  # the search's call; either way an answer
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.end_offered_by == ""
    assert stored.is_finished is (answer == "accepted")
