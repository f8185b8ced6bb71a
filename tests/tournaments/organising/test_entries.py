"""Editing an entry (kept in its history) and re-seeding by rating before round 1."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.models.entries import EntryChange
from tournaments.models.ratings import SiteRating
from tournaments.models.tournament import Entry
from tournaments.organising.entries import (
    EntryEditError,
    EntryValues,
    current_values,
    edit_entry,
    history,
    reseed_by_rating,
)
from tournaments.rounds.draw import pair_next_round

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def entered(t, name: str, rating: int | None, seed: int) -> Entry:
    entry = EntryFactory(tournament=t, seed=seed, player__name=name, player__rating=rating)
    return entry


def test_an_edit_changes_the_entry_and_keeps_each_changed_field_in_the_history():
    t = TournamentFactory()
    entry = entered(t, "Anna Brg", None, 1)
    by = UserFactory()
    values = EntryValues("Anna Berg", "Lancre", "Norway", 1500, 1)
    changes = edit_entry(entry, values=values, by=by, now=NOW)
    entry.refresh_from_db()
    # The country typed by name is stored, and kept in the history, as its ISO code.
    assert current_values(entry) == EntryValues("Anna Berg", "Lancre", "NO", 1500, 1)
    assert {(c.field, c.before, c.after) for c in changes} == {
        ("name", "Anna Brg", "Anna Berg"),
        ("club", "", "Lancre"),
        ("country", "", "NO"),
        ("rating", "", "1500"),
    }
    assert all(c.changed_by == by and c.changed_at == NOW for c in history(t))


@pytest.mark.parametrize(
    ("values", "field"),
    [
        (EntryValues("  ", "", "", None, 1), "name"),
        (EntryValues("Anna", "", "", -1, 1), "rating"),
        (EntryValues("Anna", "", "", 4001, 1), "rating"),
        (EntryValues("Anna", "", "", None, 2), "seed"),
        (EntryValues("Anna", "", "", None, 0), "seed"),
        (EntryValues("bob", "", "", None, 1), "name"),
        (EntryValues("Anna\x07", "", "", None, 1), "name"),
        (EntryValues("Anna", "", "Ankh-Morpork", None, 1), "country"),
        (EntryValues("Anna", "", "N\x07", None, 1), "country"),
    ],
)
def test_bad_input_is_refused_with_the_field_and_changes_nothing(values, field):
    t = TournamentFactory()
    entry = entered(t, "Anna", 1400, 1)
    entered(t, "Bob", None, 2)
    before = current_values(entry)
    with pytest.raises(EntryEditError) as info:
        edit_entry(entry, values=values, by=None, now=NOW)
    assert info.value.field == field and info.value.message
    entry.refresh_from_db()
    assert current_values(entry) == before
    assert not EntryChange.objects.exists()


def test_reseed_orders_by_rating_ties_by_entry_order_unrated_last():
    t = TournamentFactory()
    unrated = entered(t, "Unrated", None, 1)
    low = entered(t, "Low", 1200, 2)
    tie_first = entered(t, "Tie first", 1500, 3)
    tie_second = entered(t, "Tie second", 1500, 4)
    top = entered(t, "Top", 1800, 5)
    changes = reseed_by_rating(t, by=None, now=NOW)
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    assert [seeds[e.pk] for e in (top, tie_first, tie_second, low, unrated)] == [1, 2, 3, 4, 5]
    moved = {c.entry_id: (c.before, c.after) for c in changes}
    assert moved == {
        top.pk: ("5", "1"),
        tie_first.pk: ("3", "2"),
        tie_second.pk: ("4", "3"),
        low.pk: ("2", "4"),
        unrated.pk: ("1", "5"),
    }
    assert all(c.field == "seed" for c in changes)


def test_reseed_is_refused_once_round_1_is_paired_and_changes_nothing():
    t = TournamentFactory()
    entered(t, "A", None, 1)
    entered(t, "B", 1800, 2)
    pair_next_round(t, by=None, now=timezone.now())
    with pytest.raises(EntryEditError):
        reseed_by_rating(t, by=None, now=NOW)
    assert list(t.entries.order_by("seed").values_list("player__name", flat=True)) == ["A", "B"]
    assert not EntryChange.objects.exists()


def test_reseed_uses_the_site_rating_of_the_tournaments_game_and_the_pairing_follows():
    t = TournamentFactory(game="thud")
    entered_top = entered(t, "Entered 2000", 2000, 1)
    site_top = entered(t, "Site 2100", 1000, 2)
    other_game = entered(t, "Cavalli 2500", None, 3)
    nobody = entered(t, "Unrated", None, 4)
    for entry, game, rating in ((site_top, "thud", 2100.0), (other_game, "cavalli", 2500.0)):
        SiteRating.objects.create(
            player=entry.player, game=game, rating=rating, rd=60.0, volatility=0.06,
            last_at=NOW, last_key_a=1, last_key_b=1,
        )  # fmt: skip
    reseed_by_rating(t, by=None, now=NOW)
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    assert [seeds[e.pk] for e in (site_top, entered_top, other_game, nobody)] == [1, 2, 3, 4]
    first = pair_next_round(t, by=None, now=NOW).matches.get(table=1)
    assert site_top.pk in (first.player_a_id, first.player_b_id)
