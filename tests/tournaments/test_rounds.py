from __future__ import annotations

import pytest

from tests.factories import EntryFactory, UserFactory, tournament_with_players
from tournaments.models import Entry, ForbiddenPair, Match, ResultVersion, Round, Tournament
from tournaments.results.workflow import enter_result, record_final_result
from tournaments.rounds.adapter import (
    RoundError,
    add_forbidden_pair,
    close_tournament,
    discard_draft,
    load_standings,
    pair_next_round,
    publish_round,
    set_bye,
    swap_players,
    unpublish_round,
)

pytestmark = pytest.mark.django_db


def finish(round_: Round, survivors=(10, 1, 5, 2)) -> None:
    """Confirm every real match of a round (A wins by default: 10+8 vs 4+5)."""
    for m in round_.matches.filter(player_b__isnull=False):
        record_final_result(m, survivors=survivors, by=None, source=ResultVersion.Source.IMPORT)


def paired_ids(round_: Round) -> list[set[int | None]]:
    return [{m.player_a_id, m.player_b_id} for m in round_.matches.all()]


def play(tournament: Tournament) -> Round:
    round_ = publish_round(pair_next_round(tournament, by=None))
    finish(round_)
    return round_


def test_pairing_creates_a_draft_with_every_active_player_once():
    t = tournament_with_players(7)
    r = pair_next_round(t, by=None)
    assert r.status == Round.Status.DRAFT and r.number == 1
    ids = [x for m in r.matches.all() for x in (m.player_a_id, m.player_b_id) if x]
    assert sorted(ids) == sorted(t.entries.values_list("pk", flat=True))
    assert r.matches.filter(player_b__isnull=True).count() == 1


def test_publish_makes_the_round_count_and_starts_the_tournament():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None))
    assert r.status == Round.Status.PUBLISHED and r.published_at is not None
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    with pytest.raises(RoundError):
        publish_round(r)


def test_refuses_to_pair_while_the_round_is_a_draft_or_unconfirmed():
    t = tournament_with_players(4)
    r = pair_next_round(t, by=None)
    with pytest.raises(RoundError, match="not published"):
        pair_next_round(t, by=None)
    publish_round(r)
    first = r.matches.first()
    enter_result(first, survivors=(1, 1, 1, 1), by=UserFactory(), expected_lock_version=0)
    with pytest.raises(RoundError, match="unconfirmed"):
        pair_next_round(t, by=None)
    assert t.round_set.count() == 1


def test_refuses_to_pair_after_the_last_round():
    t = tournament_with_players(4, rounds=1)
    play(t)
    with pytest.raises(RoundError, match="All 1 rounds"):
        pair_next_round(t, by=None)


def test_swiss_round_two_avoids_rematches_and_marks_round_one_finished():
    t = tournament_with_players(6, rounds=3)
    r1 = play(t)
    r2 = pair_next_round(t, by=None)
    first = {frozenset(p) for p in paired_ids(r1)}
    assert not first & {frozenset(p) for p in paired_ids(r2)}
    r1.refresh_from_db()
    assert r1.status == Round.Status.FINISHED


def test_unpublish_only_while_no_result_is_entered():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None))
    assert unpublish_round(r).status == Round.Status.DRAFT
    publish_round(r)
    m = r.matches.first()
    enter_result(m, survivors=(1, 1, 1, 1), by=UserFactory(), expected_lock_version=0)
    with pytest.raises(RoundError, match="pairings are frozen"):
        unpublish_round(r)
    r.refresh_from_db()
    assert r.status == Round.Status.PUBLISHED


def test_discard_draft_removes_the_round():
    t = tournament_with_players(4)
    discard_draft(pair_next_round(t, by=None))
    assert not t.round_set.exists()


def test_swap_in_a_draft_warns_about_a_rematch():
    t = tournament_with_players(4, rounds=3)
    r1 = play(t)
    r2 = pair_next_round(t, by=None)
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
    r = publish_round(pair_next_round(t, by=None))
    e1, e2 = t.entries.all()[:2]
    with pytest.raises(RoundError, match="draft"):
        swap_players(r, e1, e2)


def test_set_bye_moves_the_bye_and_warns_about_a_second_bye():
    t = tournament_with_players(5, rounds=3)
    r1 = play(t)
    had_bye = r1.matches.get(player_b__isnull=True).player_a
    r2 = pair_next_round(t, by=None)
    warnings = set_bye(r2, had_bye)
    assert r2.matches.get(player_b__isnull=True).player_a_id == had_bye.pk
    assert any("already had a bye" in w for w in warnings)
    assert r2.matches.count() == 3


def test_set_bye_in_an_even_round_gives_the_opponent_a_bye_too():
    t = tournament_with_players(4)
    r = pair_next_round(t, by=None)
    entry = r.matches.first().player_a
    set_bye(r, entry)
    assert r.matches.filter(player_b__isnull=True).count() == 2


def test_withdrawn_players_are_not_paired_and_late_entries_are():
    t = tournament_with_players(4, rounds=3)
    play(t)
    gone = t.entries.first()
    gone.withdrawn_from_round = 2
    gone.save()
    late = EntryFactory(tournament=t, seed=9, late_from_round=2, initial_points=1)
    r2 = pair_next_round(t, by=None)
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
        pair_next_round(t, by=None)
    assert not t.round_set.exists()


def test_round_robin_meets_everyone_once():
    t = tournament_with_players(4, rounds=3, format=Tournament.Format.ROUND_ROBIN)
    pairs = []
    for _ in range(3):
        pairs += [frozenset(p) for p in paired_ids(play(t))]
    assert len(set(pairs)) == 6
    with pytest.raises(RoundError):
        pair_next_round(t, by=None)


def test_single_elimination_advances_the_winners_to_a_final():
    t = tournament_with_players(4, rounds=2, format=Tournament.Format.SINGLE_ELIMINATION)
    r1 = play(t)  # A wins every match
    winners = {m.player_a_id for m in r1.matches.all()}
    final = pair_next_round(t, by=None)
    assert final.matches.count() == 1
    assert set(paired_ids(final)[0]) == winners


def test_single_elimination_seeds_top_against_bottom():
    t = tournament_with_players(4, format=Tournament.Format.SINGLE_ELIMINATION)
    r = pair_next_round(t, by=None)
    seeds = sorted(
        sorted((m.player_a.seed, m.player_b.seed))
        for m in r.matches.select_related("player_a", "player_b")
    )
    assert seeds == [[1, 4], [2, 3]]


def test_standings_count_confirmed_results_and_byes_only():
    t = tournament_with_players(3)
    r = publish_round(pair_next_round(t, by=None))
    rows = {row.entry_id: row for row in load_standings(t)}
    bye = r.matches.get(player_b__isnull=True).player_a_id
    assert rows[bye].match_points == 2 and rows[bye].byes == 1
    assert sum(row.played for row in rows.values()) == 1
    finish(r)
    winner = r.matches.get(player_b__isnull=False).player_a_id
    assert next(row for row in load_standings(t) if row.entry_id == winner).match_points == 2


def test_close_tournament_needs_every_result():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None))
    with pytest.raises(RoundError):
        close_tournament(t)
    finish(r)
    assert close_tournament(t).status == Tournament.Status.FINISHED
    assert set(t.round_set.values_list("status", flat=True)) == {Round.Status.FINISHED}
    with pytest.raises(RoundError, match="closed"):
        pair_next_round(t, by=None)


def test_draft_round_matches_are_not_in_standings():
    t = tournament_with_players(3)
    pair_next_round(t, by=None)
    assert all(row.played == 0 for row in load_standings(t))
    assert Match.objects.count() == 2
