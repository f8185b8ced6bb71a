"""The computer answers an offer to end the battle on a real bots worker (the Procfile's
``bots`` options, with the clock worker and beat, a real Redis), on the player's turn:
it accepts when it is losing badly and declines, visibly, when it expects better."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.battles.play import offer_end
from games.models.battle import Battle
from games.models.history import ClockEvent
from tests.games.bots.test_bots_end_offer import computer_battle, set_position
from tests.processes import wait_for

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]


def answered(battle_id: int):
    def look():
        b = Battle.objects.get(pk=battle_id)
        return b if not b.end_offered_by else None

    return look


def test_the_computer_losing_badly_accepts_the_offer(cluster_factory):
    cluster_factory(bots=True)
    # The computer has one dwarf left (1 – 4), the player's troll to move takes it.
    battle = set_position(computer_battle("thud", computer_side=0), "troll dF5,TH5")
    offer_end(battle.pk, side="troll", now=timezone.now())
    done = wait_for(answered(battle.pk), timeout=30, what="the computer's answer")
    assert (done.status, done.finished_reason, done.winner) == ("finished", "agreement", "troll")
    assert done.scores == {"dwarf": 1, "troll": 4}


def test_the_computer_expecting_better_declines_and_says_so(cluster_factory):
    cluster_factory(bots=True)
    battle = computer_battle("thud", computer_side=1)  # the start, the player's dwarfs to move
    offer_end(battle.pk, side="dwarf", now=timezone.now())
    done = wait_for(answered(battle.pk), timeout=30, what="the computer's answer")
    assert (done.status, done.ply) == ("running", 0)
    assert ClockEvent.objects.filter(battle=battle, kind="end_declined").count() == 1
