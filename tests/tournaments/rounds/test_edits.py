"""The organiser's edits of a draft round (``tournaments.rounds.edits``): swaps and byes,
with their warnings.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.rounds.played import paired_ids, play
from tournaments.models.tournament import Entry
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import set_bye, swap_players
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


def test_swap_in_a_draft_warns_about_a_rematch():
    t = tournament_with_players(4, rounds=3)
    r1 = play(t)
    r2 = pair_next_round(t, by=None, now=timezone.now())
    m1 = r1.matches.first()
    a, b = Entry.objects.get(pk=m1.player_a_id), Entry.objects.get(pk=m1.player_b_id)
    # Put b into a's round-2 match in place of a's opponent: a meets b again.
    opponent_of_a = next(
        (m.player_b if m.player_a_id == a.pk else m.player_a)
        for m in r2.matches.all()
        if a.pk in (m.player_a_id, m.player_b_id)
    )
    warnings = swap_players(r2, opponent_of_a, b)
    assert any("already played" in w for w in warnings)
    assert {a.pk, b.pk} in paired_ids(r2)


def test_swap_is_refused_on_a_published_round():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    e1, e2 = t.entries.all()[:2]
    with pytest.raises(RoundError, match="draft"):
        swap_players(r, e1, e2)


def test_set_bye_moves_the_bye_and_warns_about_a_second_bye():
    t = tournament_with_players(5, rounds=3)
    r1 = play(t)
    had_bye = r1.matches.get(player_b__isnull=True).player_a
    r2 = pair_next_round(t, by=None, now=timezone.now())
    warnings = set_bye(r2, had_bye)
    assert r2.matches.get(player_b__isnull=True).player_a_id == had_bye.pk
    assert any("already had a bye" in w for w in warnings)
    assert r2.matches.count() == 3


def test_set_bye_in_an_even_round_gives_the_opponent_a_bye_too():
    t = tournament_with_players(4)
    r = pair_next_round(t, by=None, now=timezone.now())
    entry = r.matches.first().player_a
    set_bye(r, entry)
    assert r.matches.filter(player_b__isnull=True).count() == 2
