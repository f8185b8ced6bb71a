"""The computer's moves (``games.bots.moves``): the task run in this process against the real
database and the real Thud bot (no worker: the task function is called directly), and
what is queued on the bots queue on commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import tasks
from games.battles.play import submit_move
from games.battles.starting import create_casual_battle
from games.bots import moves as bots
from games.engines import registry
from games.models.battle import Battle
from games.models.history import Move
from tests.games.queued import queued_moves

pytestmark = pytest.mark.django_db

THUD = registry.get("thud")
FIRST, SECOND = THUD.sides[0].key, THUD.sides[1].key


def computer_battle(*, computer_first: bool, timed: bool = True, level: int = 1) -> Battle:
    human = get_user_model().objects.create_user(f"human{Battle.objects.count()}")
    computer = bots.computer_user()
    first, second = (computer, human) if computer_first else (human, computer)
    return create_casual_battle(
        game="thud",
        first=first,
        second=second,
        timed=timed,
        bot_level=level,
        bot_side=FIRST if computer_first else SECOND,
        now=timezone.now(),
    )


def legal_in(battle: Battle, notation: str) -> bool:
    rules = battle.rules
    return notation in rules.legal_moves(rules.deserialise(battle.board))


def test_the_task_plays_one_legal_move_for_the_computer_and_a_duplicate_plays_nothing(
    bots_queue,
):
    battle = computer_battle(computer_first=True)
    version, before = battle.clock_version, Battle.objects.get(pk=battle.pk)

    assert tasks.bot_move(battle.pk, version) is True
    assert tasks.bot_move(battle.pk, version) is False  # the same task again: the version moved on

    moves = list(Move.objects.filter(battle=battle))
    assert [(m.ply, m.side, m.kind != "forfeit") for m in moves] == [(0, FIRST, True)]
    assert legal_in(before, moves[0].notation)
    after = Battle.objects.get(pk=battle.pk)
    assert (after.ply, after.side_to_move, after.clock_version) == (1, SECOND, version + 1)


def test_the_task_plays_nothing_on_the_players_turn_a_stale_version_or_a_battle_between_people(
    bots_queue,
):
    mine = computer_battle(computer_first=False)
    assert tasks.bot_move(mine.pk, mine.clock_version) is False  # the player's turn
    theirs = computer_battle(computer_first=True)
    assert tasks.bot_move(theirs.pk, theirs.clock_version - 1) is False  # stale
    users = get_user_model().objects.create_user("a"), get_user_model().objects.create_user("b")
    people = create_casual_battle(game="thud", first=users[0], second=users[1], now=timezone.now())
    assert tasks.bot_move(people.pk, people.clock_version) is False
    assert tasks.bot_move(10**9, 1) is False  # no such battle
    assert not Move.objects.exists()


def test_the_task_searches_only_on_the_computers_turn_at_its_version(bots_queue):
    """The gate before the search (a stale or duplicate task costs no search time)."""
    theirs = computer_battle(computer_first=True)
    assert bots.computers_turn(theirs.pk, theirs.clock_version) == theirs
    assert bots.computers_turn(theirs.pk, theirs.clock_version - 1) is None
    assert bots.computers_turn(theirs.pk, theirs.clock_version + 1) is None
    mine = computer_battle(computer_first=False)
    assert bots.computers_turn(mine.pk, mine.clock_version) is None
    Battle.objects.filter(pk=theirs.pk).update(status=Battle.Status.PAUSED)
    assert bots.computers_turn(theirs.pk, theirs.clock_version) is None


def test_a_finished_battle_gets_no_move(bots_queue):
    battle = computer_battle(computer_first=True)
    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.FINISHED)
    assert tasks.bot_move(battle.pk, battle.clock_version) is False
    assert not Move.objects.exists()


def test_the_computers_turn_is_queued_on_commit_and_the_players_is_not(
    bots_queue, django_capture_on_commit_callbacks
):
    client, name = bots_queue
    with django_capture_on_commit_callbacks(execute=True):
        battle = computer_battle(computer_first=False)
    assert queued_moves(client, name) == []  # the player moves first
    rules = battle.rules
    notation = rules.legal_moves(rules.deserialise(battle.board))[0]
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(
            battle.pk,
            side=FIRST,
            version=battle.clock_version,
            notation=notation,
            now=timezone.now(),
        )
    assert queued_moves(client, name) == [[battle.pk, battle.clock_version + 1]]

    with django_capture_on_commit_callbacks(execute=True):
        first = computer_battle(computer_first=True)
    assert sorted(queued_moves(client, name)) == sorted(
        [[battle.pk, battle.clock_version + 1], [first.pk, first.clock_version]]
    )


def test_a_finished_or_paused_battle_queues_nothing(bots_queue):
    client, name = bots_queue
    for status in (Battle.Status.FINISHED, Battle.Status.PAUSED):
        bots.on_turn_changed(
            Battle, battle_id=1, version=9, side_to_move=FIRST, status=status, bot_side=FIRST
        )
    assert queued_moves(client, name) == []
    bots.on_turn_changed(
        Battle, battle_id=1, version=9, side_to_move=FIRST, status="running", bot_side=FIRST
    )
    assert queued_moves(client, name) == [[1, 9]]


def test_the_safety_net_finds_a_computers_turn_waiting_too_long_and_no_other(bots_queue):
    now = timezone.now()
    waiting = computer_battle(computer_first=True)
    fresh = computer_battle(computer_first=True)
    players_turn = computer_battle(computer_first=False)
    old = now - bots.STALLED - timedelta(seconds=1)
    Battle.objects.filter(pk__in=[waiting.pk, players_turn.pk]).update(updated_at=old)
    Battle.objects.filter(pk=fresh.pk).update(updated_at=now)
    assert bots.stalled(now=now) == [(waiting.pk, waiting.clock_version)]

    client, name = bots_queue
    assert tasks.bot_resend() == 1
    assert queued_moves(client, name) == [[waiting.pk, waiting.clock_version]]


def test_the_budget_is_the_levels_cut_to_the_think_period_left():
    now = timezone.now()
    battle = Battle(bot_level=5, timed=True)
    battle.think_ends_at, battle.deadline = now + timedelta(seconds=14), now + timedelta(seconds=19)
    assert bots.budget_ms(battle, now=now) == bots.LEVEL_BUDGET_MS[5]
    battle.think_ends_at = now + timedelta(milliseconds=bots.MARGIN_MS + 300)
    assert bots.budget_ms(battle, now=now) == pytest.approx(300)
    battle.think_ends_at = now - timedelta(seconds=1)  # think over: the turn left counts
    battle.deadline = now + timedelta(milliseconds=bots.MARGIN_MS + 200)
    assert bots.budget_ms(battle, now=now) == pytest.approx(200)
    battle.deadline = now  # too late: the least budget; the clock judges the move
    assert bots.budget_ms(battle, now=now) == bots.MIN_BUDGET_MS
    assert bots.budget_ms(Battle(bot_level=2, timed=False), now=now) == bots.LEVEL_BUDGET_MS[2]


def test_the_computer_user_is_one_inactive_account_nobody_can_log_in_as():
    computer = bots.computer_user()
    assert bots.computer_user().pk == computer.pk
    assert not computer.is_active
    assert not computer.has_usable_password()
