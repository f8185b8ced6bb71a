"""Matches decided without play are not rated (``games.battles.unplayed``, read by
``tournaments.rating.sources`` through ``GamesConfig.matches_without_play``): a battle a
referee ended before its first move (a no-show claim settled by the referee) keeps its
match out of the ratings, whatever result the tournament confirms for it."""

from __future__ import annotations

import pytest

from games.battles.starting import create_battles
from games.battles.unplayed import matches_without_play
from games.models.battle import Battle
from games.rules import clock
from tests.factories import tournament_with_players
from tests.tournaments.rating.helpers import LATER, T0
from tests.tournaments.rounds.played import finish
from tournaments.models.ratings import RatingChange
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import close_tournament, publish_round

pytestmark = pytest.mark.django_db


def _end_battle_1(match, *, ply: int, reason: str = clock.REASON_REFEREE) -> None:
    battles = create_battles(match, now=T0)
    Battle.objects.filter(pk=battles[0].pk).update(
        status=Battle.Status.FINISHED, finished_reason=reason, ply=ply
    )


def test_a_match_a_referee_ended_before_the_first_move_is_not_rated():
    t = tournament_with_players(6)
    round_ = publish_round(pair_next_round(t, by=None, now=T0), now=T0)
    no_show, played, on_time = round_.matches.filter(player_b__isnull=False).order_by("table")
    _end_battle_1(no_show, ply=0)  # the referee settled a no-show claim
    _end_battle_1(played, ply=12)  # a referee decision after twelve plies: played
    _end_battle_1(on_time, ply=0, reason=clock.REASON_TIME)  # not a referee's decision
    assert matches_without_play([no_show.pk, played.pk, on_time.pk]) == {no_show.pk}
    finish(round_)
    close_tournament(t, now=LATER)
    rated = set(RatingChange.objects.values_list("player_id", flat=True))
    assert no_show.player_a.player_id not in rated
    assert no_show.player_b.player_id not in rated
    for m in (played, on_time):
        assert {m.player_a.player_id, m.player_b.player_id} <= rated
    assert len(rated) == 4
