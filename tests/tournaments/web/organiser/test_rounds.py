"""The organiser's rounds: pairing, editing and publishing a draft, printing it."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.web.organiser.pages import HTMX, url
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- rounds


def test_generate_edit_publish_unpublish(organiser, tournament):
    response = organiser.post(url(tournament, "rounds/generate/"))
    assert response["Location"] == url(tournament, "rounds/1/")
    round_ = tournament.round_set.get()
    assert round_.status == Round.Status.DRAFT
    assert "Swap" in organiser.get(url(tournament, "rounds/1/")).content.decode()
    organiser.post(url(tournament, "rounds/1/publish/"))
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    organiser.post(url(tournament, "rounds/1/unpublish/"))
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT
    organiser.post(url(tournament, "rounds/1/discard/"), {"confirm": "1"})
    assert not tournament.round_set.exists()


def test_generate_refused_while_unfinished_shows_the_reason(organiser, tournament):
    publish_round(pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now())
    response = organiser.post(url(tournament, "rounds/generate/"), follow=True)
    assert "unconfirmed results" in response.content.decode()
    assert tournament.round_set.count() == 1


def test_swap_via_htmx_returns_the_fragment_with_warnings(organiser, tournament):
    r1 = publish_round(pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now())
    for m in r1.matches.all():
        record_final_result(
            m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
        )
    r2 = pair_next_round(tournament, by=None, now=timezone.now())
    m1 = r1.matches.first()
    a = Entry.objects.get(pk=m1.player_a_id)
    m2 = r2.matches.get(player_a=a) if r2.matches.filter(player_a=a).exists() else None
    m2 = m2 or r2.matches.get(player_b=a)
    opponent = m2.player_b if m2.player_a_id == a.pk else m2.player_a
    data = {"first": opponent.pk, "second": m1.player_b_id}
    response = organiser.post(url(tournament, "rounds/2/swap/"), data, **HTMX)
    body = response.content.decode()
    assert body.strip().startswith('<div id="round-matches"') and "already played" in body


def test_swap_bad_input_changes_nothing(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    before = list(Round.objects.get().matches.values_list("player_a", "player_b"))
    e = tournament.entries.first()
    response = organiser.post(url(tournament, "rounds/1/swap/"), {"first": e.pk, "second": e.pk})
    assert response.status_code == 302
    assert list(Round.objects.get().matches.values_list("player_a", "player_b")) == before


def test_set_bye_plain_post_redirects(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    e = tournament.entries.first()
    response = organiser.post(url(tournament, "rounds/1/bye/"), {"entry": e.pk})
    assert response.status_code == 302
    assert Round.objects.get().matches.get(player_b__isnull=True, player_a=e)


def test_printable_pairings_and_slips(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    assert (
        "window.print"
        in organiser.get(url(tournament, "rounds/1/print/pairings/")).content.decode()
    )
    slips = organiser.get(url(tournament, "rounds/1/print/slips/")).content.decode()
    assert slips.count('class="slip"') == 2


def test_cavalli_slips_round_table_and_printed_pairings_speak_of_white_and_black(client):
    t = tournament_with_players(4, rounds=3, game="cavalli")
    client.force_login(t.owner)
    pair_next_round(t, by=None, now=timezone.now())
    slips = client.get(url(t, "rounds/1/print/slips/")).content.decode()
    assert slips.count('class="slip"') == 2
    for words in ("White", "White points (0–4950)", "Black", "Black points (0–4950)"):
        assert f"<th>{words}</th>" in slips
    assert "<th>Game 1</th>" in slips and "<th>Game 2</th>" in slips
    round_page = client.get(url(t, "rounds/1/")).content.decode()
    assert "<th>Player A (white in game 1)</th>" in round_page
    printed = client.get(url(t, "rounds/1/print/pairings/")).content.decode()
    assert "<th>Player A (white in game 1)</th><th>Player B (black in game 1)</th>" in printed
    for page in (slips, round_page, printed):
        assert not re.search(r"dwarf|troll|surviv", page, re.IGNORECASE)


def test_thud_slips_round_table_and_printed_pairings_keep_their_words(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    slips = organiser.get(url(tournament, "rounds/1/print/slips/")).content.decode()
    assert "<th>Surviving dwarfs (0–32)</th>" in slips and "<th>Battle 1</th>" in slips
    assert "<th>Surviving trolls (0–8)</th>" in slips
    round_page = organiser.get(url(tournament, "rounds/1/")).content.decode()
    assert "<th>Player A (dwarfs first)</th>" in round_page
    printed = organiser.get(url(tournament, "rounds/1/print/pairings/")).content.decode()
    assert "<th>Player A (dwarfs in battle 1)</th><th>Player B (trolls in battle 1)</th>" in printed
