"""Player cards: a PDF with one card per player and a QR code of their personal link,
decoded here (zxing-cpp) from the page drawn by poppler's pdftoppm."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from django.conf import settings
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models.tournament import Entry
from tournaments.organising.personal_links import personal_path

pytestmark = pytest.mark.django_db

OUTPUT = Path(settings.BASE_DIR) / "test-output"
NAMES = ["Agnes Nitt", "Detritus", "Carrot Ironfoundersson"]


def decoded_qr_codes(pdf: bytes, name: str) -> list[str]:
    """The texts of every QR code on page 1 of ``pdf`` (drawn at 150 dpi)."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", str(path), str(OUTPUT / name)],
        check=True,
        timeout=60,
    )
    image = Image.open(OUTPUT / f"{name}-1.png")
    return [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]


def test_player_cards_have_each_name_and_a_qr_code_of_the_personal_link(client):
    t = TournamentFactory(name="Ankh Open")
    for name in NAMES:
        EntryFactory(tournament=t, player=PlayerFactory(name=name))
    client.force_login(t.owner)
    dashboard = client.get(reverse("organiser_dashboard", args=[t.slug])).content.decode()
    url = reverse("player_cards_pdf", args=[t.slug])
    assert f'href="{url}"' in dashboard
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    # Words only: a long name may wrap on its card.
    text = "".join(PdfReader(io.BytesIO(response.content)).pages[0].extract_text().split())
    for name in NAMES:
        assert name.replace(" ", "") in text
    assert "AnkhOpen" in text
    links = {f"http://testserver{personal_path(e)}" for e in Entry.objects.filter(tournament=t)}
    assert set(decoded_qr_codes(response.content, "player-cards-pdf")) == links


def test_player_cards_are_for_organisers_only(client):
    t = TournamentFactory()
    EntryFactory(tournament=t)
    url = reverse("player_cards_pdf", args=[t.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
