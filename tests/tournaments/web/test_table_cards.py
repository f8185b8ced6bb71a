"""Table cards: a PDF with one card per table of a round, the pairing and a QR code of
the table's referee page, decoded here as the player cards' are."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import UserFactory, make_match
from tests.tournaments.web.test_player_cards import decoded_qr_codes

pytestmark = pytest.mark.django_db


def test_table_cards_name_the_pair_and_lead_to_the_tables_referee_page(client):
    matches = make_match(tables=2)
    round_ = matches[0].round
    t = round_.tournament
    client.force_login(t.referees.get())
    page = client.get(reverse("referee_round", args=[t.slug, round_.number])).content.decode()
    url = reverse("table_cards_pdf", args=[t.slug, round_.number])
    assert f'href="{url}"' in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(PdfReader(io.BytesIO(response.content)).pages[0].extract_text().split())
    assert matches[0].player_a.player.name in text and matches[0].player_b.player.name in text
    links = {f"http://testserver{reverse('referee_match', args=[t.slug, m.pk])}" for m in matches}
    assert set(decoded_qr_codes(response.content, "table-cards-pdf")) == links


def test_table_cards_are_for_referees_and_organisers_only(client):
    match = make_match()[0]
    t = match.round.tournament
    url = reverse("table_cards_pdf", args=[t.slug, match.round.number])
    assert client.get(url).status_code == 302  # to the log-in page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
