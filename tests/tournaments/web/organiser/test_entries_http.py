"""The organiser's entry edits (with the history shown) and re-seed, over HTTP."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.web.organiser.pages import HTMX, url
from tournaments.models.entries import EntryChange
from tournaments.rounds.draw import pair_next_round

pytestmark = pytest.mark.django_db


def form(entry, **changes):
    p = entry.player
    data = {"name": p.name, "club": p.club, "country": p.country.code, "seed": entry.seed}
    data["rating"] = "" if p.rating is None else p.rating
    return data | changes


def test_an_edit_is_saved_and_shown_in_the_history(organiser, tournament):
    entry = tournament.entries.order_by("seed").first()
    page = url(tournament, f"players/{entry.pk}/edit/")
    assert organiser.get(page).status_code == 200
    r = organiser.post(page, form(entry, name="Anna Berg", rating=1650))
    assert r.status_code == 302 and r["Location"] == url(tournament)
    entry.refresh_from_db()
    assert (entry.player.name, entry.player.rating) == ("Anna Berg", 1650)
    dashboard = organiser.get(url(tournament)).content.decode()
    assert "History of the entries" in dashboard and "Anna Berg" in dashboard
    assert f"by {tournament.owner.get_username()}" in dashboard
    history = organiser.get(page).content.decode()
    assert "rating — → 1650" in history


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "Type the player&#x27;s name."),
        ({"rating": -5}, "A rating is a whole number from 0 to 4000."),
        ({"seed": 2}, "Seed 2 is"),
        ({"seed": "x"}, "A seed is a whole number from 1."),
    ],
)
def test_bad_input_answers_a_clear_message_and_changes_nothing(
    organiser, tournament, changes, message
):
    entry = tournament.entries.order_by("seed").first()
    before = (entry.player.name, entry.player.rating, entry.seed)
    r = organiser.post(url(tournament, f"players/{entry.pk}/edit/"), form(entry, **changes))
    assert r.status_code == 400 and message in r.content.decode()
    entry.refresh_from_db()
    assert (entry.player.name, entry.player.rating, entry.seed) == before
    assert not EntryChange.objects.exists()


def test_only_the_organiser_edits_an_entry(client, tournament):
    entry = tournament.entries.first()
    client.force_login(UserFactory())
    r = client.post(url(tournament, f"players/{entry.pk}/edit/"), form(entry, name="Hacked"))
    assert r.status_code == 403
    entry.refresh_from_db()
    assert entry.player.name != "Hacked"


def test_reseed_by_rating_before_round_1_and_refused_after(organiser, tournament):
    entries = list(tournament.entries.order_by("seed").select_related("player"))
    for rating, e in zip((None, 1200, 1800, None), entries, strict=True):
        e.player.rating = rating
        e.player.save()
    r = organiser.post(url(tournament, "players/reseed/"), **HTMX)
    assert r.status_code == 200 and "Seeded by rating" in r.content.decode()
    seeds = [e.seed for e in tournament.entries.order_by("pk")]
    by_pk = sorted(entries, key=lambda e: e.pk)
    assert dict(zip((e.pk for e in by_pk), seeds, strict=True)) == {
        entries[2].pk: 1,
        entries[1].pk: 2,
        entries[0].pk: 3,
        entries[3].pk: 4,
    }
    pair_next_round(tournament, by=None, now=timezone.now())
    r = organiser.post(url(tournament, "players/reseed/"), **HTMX)
    assert "Round 1 is paired" in r.content.decode()
    assert [e.seed for e in tournament.entries.order_by("pk")] == seeds
    assert "Re-seed by rating" not in organiser.get(url(tournament)).content.decode()


def test_the_edit_form_shows_the_country_by_name_in_the_readers_language_and_reads_it_back(
    organiser, tournament
):
    entry = tournament.entries.order_by("seed").first()
    entry.player.country = "NO"
    entry.player.save()
    page = url(tournament, f"players/{entry.pk}/edit/")
    shown = organiser.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'name="country" value="Norvegia"' in shown
    # Sent back as shown: nothing changed. Typed as an Italian name: stored as the code.
    r = organiser.post(page, form(entry, country="Norvegia"), HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 302 and not EntryChange.objects.exists()
    organiser.post(page, form(entry, country="Germania"))
    entry.player.refresh_from_db()
    assert entry.player.country == "DE"
    assert EntryChange.objects.get().after == "DE"
    refused = organiser.post(page, form(entry, country="Ankh-Morpork"))
    assert refused.status_code == 400
    assert "Ankh-Morpork is not a country we know" in refused.content.decode()
