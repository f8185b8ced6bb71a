"""Twenty people starting one match's battles at once (PostgreSQL only).

The view's sequence (``create_battles`` then ``start_battle`` of battle 1) runs in
twenty threads with their own connections, released together by a barrier. Exactly
one pair of battles exists afterwards, battle 1 started exactly once, and an organiser
racing them with "unpublish" either wins before any battle exists or is refused.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games.battles.errors import BattleError, NotAllowed
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent
from tests.factories import make_match
from tests.tournaments.results.test_workflow_concurrency import race
from tournaments.models.rounds import Match, Round
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import unpublish_round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(60),
]


def _start(match_id: int):
    def start():
        match = Match.objects.select_related("round__tournament").get(pk=match_id)
        b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
        return start_battle(b1.pk, via=ClockEvent.Via.PLAYER, now=timezone.now())

    return start


def test_twenty_starts_at_once_create_one_pair_and_start_battle_one_once():
    match = make_match(variant="quickfire24")[0]
    outcomes = race(*[_start(match.pk) for _ in range(20)])
    started = [o for o in outcomes if isinstance(o, Battle)]
    refused = [o for o in outcomes if isinstance(o, BattleError)]
    assert len(started) == 1 and len(refused) == 19, outcomes
    assert {str(o) for o in refused} <= {
        "This battle has already started.",
        "The battle changed meanwhile; please try again.",
    }, refused
    pair = list(Battle.objects.filter(match=match).order_by("number"))
    assert [b.number for b in pair] == [1, 2]
    assert [b.status for b in pair] == [Battle.Status.RUNNING, Battle.Status.PENDING]
    starts = ClockEvent.objects.filter(battle__match=match, kind=ClockEvent.Kind.STARTED)
    assert starts.count() == 1
    assert Match.objects.get(pk=match.pk).play_started_at is not None


def test_unpublish_racing_nineteen_starts_has_one_consistent_outcome():
    match = make_match(variant="quickfire24")[0]

    def unpublish():
        return unpublish_round(Round.objects.get(pk=match.round_id))

    outcomes = race(unpublish, *[_start(match.pk) for _ in range(19)])
    status = Round.objects.get(pk=match.round_id).status
    battles_exist = Battle.objects.filter(match=match).exists()
    if isinstance(outcomes[0], Round):  # unpublish won: nothing was played
        assert status == Round.Status.DRAFT and not battles_exist
        assert all(isinstance(o, NotAllowed) for o in outcomes[1:]), outcomes
    else:  # a start won: the round stays published with its battles
        assert isinstance(outcomes[0], RoundError), outcomes
        assert status == Round.Status.PUBLISHED and battles_exist
        started = [o for o in outcomes[1:] if isinstance(o, Battle)]
        assert len(started) == 1
