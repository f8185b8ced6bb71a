"""The standings read from the database (``tournaments.rounds.reads``)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.rounds.played import finish
from tournaments.models.rounds import Match
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import load_standings

pytestmark = pytest.mark.django_db


def test_standings_count_confirmed_results_and_byes_only():
    t = tournament_with_players(3)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    rows = {row.entry_id: row for row in load_standings(t)}
    bye = r.matches.get(player_b__isnull=True).player_a_id
    assert rows[bye].match_points == 2 and rows[bye].byes == 1
    assert sum(row.played for row in rows.values()) == 1
    finish(r)
    winner = r.matches.get(player_b__isnull=False).player_a_id
    assert next(row for row in load_standings(t) if row.entry_id == winner).match_points == 2


def test_draft_round_matches_are_not_in_standings():
    t = tournament_with_players(3)
    pair_next_round(t, by=None, now=timezone.now())
    assert all(row.played == 0 for row in load_standings(t))
    assert Match.objects.count() == 2
