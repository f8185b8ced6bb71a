"""Resigning a battle and the end offer that stands until answered
(``games.battles.play``: ``resign``, ``offer_end``; ``finishing`` ends an offer with the
battle), both games, against a person and the computer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.battles import agreements
from games.battles.errors import NotAllowed, StaleVersion
from games.battles.play import accept_end, decline_end, offer_end, resign, submit_move
from games.battles.settle import settle
from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.bots import moves as bots
from games.models.battle import Battle
from games.models.history import ClockEvent
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db

GAMES = ["thud", "cavalli"]


def casual(game: str, **kw) -> Battle:
    return create_casual_battle(
        game=game, first=UserFactory(), second=UserFactory(), board_seed=7, now=timezone.now(), **kw
    )


def sides(battle: Battle) -> tuple[str, str]:
    first, second = (info.key for info in battle.rules.sides)
    return first, second


def play_one(battle: Battle, *, pick: int = 0) -> Battle:
    rules = battle.rules
    notation = rules.legal_moves(rules.deserialise(battle.board))[pick]
    return submit_move(
        battle.pk,
        side=battle.side_to_move,
        version=battle.clock_version,
        notation=notation,
        now=timezone.now(),
    )


# --- resigning --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_resigning_ends_the_battle_now_with_the_score_as_it_stands_and_the_other_side_wins(game):
    battle = play_one(play_one(casual(game)))
    first, second = sides(battle)
    rules = battle.rules
    promised = rules.scores(rules.deserialise(battle.board))  # what the question shows

    # Two plies played: the first side resigns on its turn.
    done = resign(battle.pk, side=first, version=battle.clock_version, now=timezone.now())

    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.status, stored.finished_reason, stored.winner) == (
        "finished",
        "resigned",
        second,
    )
    assert stored.scores == promised and stored.board == battle.board
    assert stored.side_to_move == first  # the loser, as a loss on time records it
    assert done.clock_version == battle.clock_version + 1
    kinds = list(ClockEvent.objects.filter(battle=battle).values_list("kind", flat=True))
    assert kinds.count("resigned") == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_player_may_resign_out_of_turn(game):
    battle = casual(game)
    first, second = sides(battle)
    assert battle.side_to_move == first
    resign(battle.pk, side=second, version=battle.clock_version, now=timezone.now())
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.finished_reason, stored.winner, stored.side_to_move) == (
        "resigned",
        first,
        second,
    )


def test_a_resignation_wins_for_the_other_side_even_when_the_resigner_leads():
    battle = casual("thud")
    # The trolls lead 32 to 20 (twelve dwarfs off the board) and resign all the same.
    Battle.objects.filter(pk=battle.pk).update(board=battle.board.replace("d", ".", 12))
    resign(battle.pk, side="troll", version=battle.clock_version, now=timezone.now())
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.scores == {"dwarf": 20, "troll": 32} and stored.winner == "dwarf"


def test_a_double_tap_resigns_once_and_the_other_player_cannot_resign_after():
    battle = casual("thud")
    version = battle.clock_version
    resign(battle.pk, side="dwarf", version=version, now=timezone.now())
    again = resign(battle.pk, side="dwarf", version=version, now=timezone.now())
    assert again.clock_version == version + 1  # nothing written twice
    assert ClockEvent.objects.filter(battle=battle, kind="resigned").count() == 1
    with pytest.raises(NotAllowed, match="This battle is over."):
        resign(battle.pk, side="troll", version=version + 1, now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).winner == "troll"


def test_a_finished_battle_refuses_a_resignation_and_keeps_its_result():
    battle = casual("cavalli")
    offer_end(battle.pk, side="white", now=timezone.now())
    accept_end(battle.pk, side="black", now=timezone.now())
    before = Battle.objects.get(pk=battle.pk)
    with pytest.raises(NotAllowed, match="This battle is over."):
        resign(battle.pk, side="white", version=before.clock_version, now=timezone.now())
    after = Battle.objects.get(pk=battle.pk)
    assert (after.finished_reason, after.winner, after.clock_version) == (
        "agreement",
        before.winner,
        before.clock_version,
    )


def test_a_stale_version_refuses_the_resignation_the_player_did_not_see_the_score_of():
    battle = casual("thud")
    moved = play_one(battle)
    with pytest.raises(StaleVersion):
        resign(battle.pk, side="troll", version=battle.clock_version, now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).status == "running"
    resign(battle.pk, side="troll", version=moved.clock_version, now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).finished_reason == "resigned"


def test_a_tournament_battle_cannot_be_resigned():
    (match,) = make_match()
    b1, _b2 = create_battles(match, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    b1.refresh_from_db()
    with pytest.raises(NotAllowed, match="tournament battle cannot be resigned"):
        resign(b1.pk, side=b1.side_to_move, version=b1.clock_version, now=timezone.now())
    assert Battle.objects.get(pk=b1.pk).status == "running"


@pytest.mark.parametrize("game", GAMES)
def test_a_player_resigns_against_the_computer(game):
    human, computer = UserFactory(), bots.computer_user()
    battle = create_casual_battle(
        game=game,
        first=human,
        second=computer,
        board_seed=7,
        timed=False,
        bot_level=1,
        bot_side=sides(casual(game))[1],
        now=timezone.now(),
    )
    first, second = sides(battle)
    resign(battle.pk, side=first, version=battle.clock_version, now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).winner == second


def test_a_clock_that_ran_out_first_wins_over_a_late_resignation():
    battle = create_casual_battle(
        game="thud",
        first=UserFactory(),
        second=UserFactory(),
        timing="correspondence",
        days=1,
        now=timezone.now(),
    )
    later = timezone.now() + timedelta(days=1, seconds=5)
    with pytest.raises(NotAllowed, match="This battle is over."):
        resign(battle.pk, side="troll", version=battle.clock_version, now=later)
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.finished_reason, stored.winner) == ("lost_on_time", "troll")


# --- the end offer stands until answered ------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_an_offer_stands_across_moves_until_the_opponent_accepts_it(game):
    battle = casual(game)
    first, second = sides(battle)
    offer_end(battle.pk, side=first, now=timezone.now())
    battle = play_one(Battle.objects.get(pk=battle.pk))  # the offerer moves
    battle = play_one(Battle.objects.get(pk=battle.pk))  # and the opponent
    assert Battle.objects.get(pk=battle.pk).end_offered_by == first
    accept_end(battle.pk, side=second, now=timezone.now())
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.finished_reason, stored.end_offered_by) == ("agreement", "")


def test_a_declined_or_withdrawn_offer_is_gone_and_a_new_one_can_be_made():
    battle = casual("thud")
    offer_end(battle.pk, side="dwarf", now=timezone.now())
    decline_end(battle.pk, side="troll", now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).end_offered_by == ""
    offer_end(battle.pk, side="troll", now=timezone.now())
    play_one(Battle.objects.get(pk=battle.pk))
    agreements.withdraw_end(battle.pk, side="troll", now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).end_offered_by == ""
    with pytest.raises(NotAllowed):
        accept_end(battle.pk, side="dwarf", now=timezone.now())


def test_an_offer_ends_with_the_battle_whatever_ends_it():
    by_resignation = casual("thud")
    offer_end(by_resignation.pk, side="dwarf", now=timezone.now())
    resign(
        by_resignation.pk, side="troll", version=by_resignation.clock_version, now=timezone.now()
    )
    assert Battle.objects.get(pk=by_resignation.pk).end_offered_by == ""

    by_clock = create_casual_battle(
        game="cavalli",
        first=UserFactory(),
        second=UserFactory(),
        timing="correspondence",
        days=1,
        board_seed=7,
        now=timezone.now(),
    )
    offer_end(by_clock.pk, side="black", now=timezone.now())
    later = timezone.now() + timedelta(days=1, seconds=5)
    settle(by_clock.pk, via=ClockEvent.Via.SWEEP, now=later)
    stored = Battle.objects.get(pk=by_clock.pk)
    assert (stored.finished_reason, stored.end_offered_by) == ("lost_on_time", "")
