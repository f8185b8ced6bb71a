"""The draw (``tournaments.rounds.draw``): pairing the next round as a draft, by format,
and discarding a draft.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, UserFactory, tournament_with_players
from tests.tournaments.rounds.played import paired_ids, play
from tournaments.models.entries import ForbiddenPair
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.results.entry import enter_result
from tournaments.rounds.draw import discard_draft, pair_next_round
from tournaments.rounds.edits import add_forbidden_pair
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import load_standings

pytestmark = pytest.mark.django_db


def test_pairing_creates_a_draft_with_every_active_player_once():
    t = tournament_with_players(7)
    r = pair_next_round(t, by=None, now=timezone.now())
    assert r.status == Round.Status.DRAFT and r.number == 1
    ids = [x for m in r.matches.all() for x in (m.player_a_id, m.player_b_id) if x]
    assert sorted(ids) == sorted(t.entries.values_list("pk", flat=True))
    assert r.matches.filter(player_b__isnull=True).count() == 1


def test_refuses_to_pair_while_the_round_is_a_draft_or_unconfirmed():
    t = tournament_with_players(4)
    r = pair_next_round(t, by=None, now=timezone.now())
    with pytest.raises(RoundError, match="not published"):
        pair_next_round(t, by=None, now=timezone.now())
    publish_round(r, now=timezone.now())
    first = r.matches.first()
    enter_result(
        first, survivors=(1, 1, 1, 1), by=UserFactory(), expected_lock_version=0, now=timezone.now()
    )
    with pytest.raises(RoundError, match="unconfirmed"):
        pair_next_round(t, by=None, now=timezone.now())
    assert t.round_set.count() == 1


def test_refuses_to_pair_after_the_last_round():
    t = tournament_with_players(4, rounds=1)
    play(t)
    with pytest.raises(RoundError, match="All 1 rounds"):
        pair_next_round(t, by=None, now=timezone.now())


def test_swiss_round_two_avoids_rematches_and_marks_round_one_finished():
    t = tournament_with_players(6, rounds=3)
    r1 = play(t)
    r2 = pair_next_round(t, by=None, now=timezone.now())
    first = {frozenset(p) for p in paired_ids(r1)}
    assert not first & {frozenset(p) for p in paired_ids(r2)}
    r1.refresh_from_db()
    assert r1.status == Round.Status.FINISHED


def test_discard_draft_removes_the_round():
    t = tournament_with_players(4)
    discard_draft(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    assert not t.round_set.exists()


def test_withdrawn_players_are_not_paired_and_late_entries_are():
    t = tournament_with_players(4, rounds=3)
    play(t)
    gone = t.entries.first()
    gone.withdrawn_from_round = 2
    gone.save()
    late = EntryFactory(tournament=t, seed=9, late_from_round=2, initial_points=1)
    r2 = pair_next_round(t, by=None, now=timezone.now())
    ids = {x for m in r2.matches.all() for x in (m.player_a_id, m.player_b_id)}
    assert gone.pk not in ids and late.pk in ids
    row = next(r for r in load_standings(t) if r.entry_id == late.pk)
    assert row.match_points == 1 and row.played == 0


def test_forbidden_pairs_are_never_paired():
    t = tournament_with_players(2)
    e1, e2 = t.entries.all()
    add_forbidden_pair(t, e1, e2)
    assert ForbiddenPair.objects.count() == 1
    with pytest.raises(RoundError):
        pair_next_round(t, by=None, now=timezone.now())
    assert not t.round_set.exists()


def test_round_robin_meets_everyone_once():
    t = tournament_with_players(4, rounds=3, format=Tournament.Format.ROUND_ROBIN)
    pairs = []
    for _ in range(3):
        pairs += [frozenset(p) for p in paired_ids(play(t))]
    assert len(set(pairs)) == 6
    with pytest.raises(RoundError):
        pair_next_round(t, by=None, now=timezone.now())


def test_single_elimination_advances_the_winners_to_a_final():
    t = tournament_with_players(4, rounds=2, format=Tournament.Format.SINGLE_ELIMINATION)
    r1 = play(t)  # A wins every match
    winners = {m.player_a_id for m in r1.matches.all()}
    final = pair_next_round(t, by=None, now=timezone.now())
    assert final.matches.count() == 1
    assert set(paired_ids(final)[0]) == winners


def test_single_elimination_seeds_top_against_bottom():
    t = tournament_with_players(4, format=Tournament.Format.SINGLE_ELIMINATION)
    r = pair_next_round(t, by=None, now=timezone.now())
    seeds = sorted(
        sorted((m.player_a.seed, m.player_b.seed))
        for m in r.matches.select_related("player_a", "player_b")
    )
    assert seeds == [[1, 4], [2, 3]]
