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


#: Ten players, with the names that used to break: one long word, many words, a long
#: word among others.
TEN = [
    "Carrot Ironfoundersson",
    "Ironfoundersonsonsonson",
    "Agnes Nitt",
    "Detritus",
    "Samuel Vimes",
    "Lord Havelock Vetinari of Ankh-Morpork",
    "Fred Colon",
    "Angua von Überwald",
    "Cheery Littlebottom",
    "Mustrum Ridcully Archchancellorson",
]


def pdf_text(pdf: bytes, name: str, page: int | None = None) -> str:
    """The PDF's text as poppler's pdftotext reads it (all pages, or one)."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.pdf"
    path.write_bytes(pdf)
    pages = ["-f", str(page), "-l", str(page)] if page else []
    run = subprocess.run(
        ["pdftotext", *pages, str(path), "-"], check=True, capture_output=True, timeout=60
    )
    return run.stdout.decode()


def test_ten_cards_take_two_sheets_from_page_1_with_whole_names_and_the_url_under_the_qr(client):
    """Eight cards (2 × 4) on each A4 sheet, from page 1 (it was blank, and 10 players took
    3 sheets); every name wraps between its words only; the full URL is printed."""
    t = TournamentFactory(name="Ankh Open")
    for seed, name in enumerate(TEN, start=1):
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name))
    client.force_login(t.owner)
    pdf = client.get(reverse("player_cards_pdf", args=[t.slug])).content
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 2
    first = pdf_text(pdf, "player-cards-ten", page=1)
    entries = list(Entry.objects.filter(tournament=t).order_by("seed"))
    urls = [f"http://testserver{personal_path(e)}" for e in entries]
    lines = {line.strip() for line in first.splitlines()}
    for url in urls[:8]:
        assert url in lines, url  # the whole URL, on a line of its own
    assert set(decoded_qr_codes(pdf, "player-cards-ten")) == set(urls[:8])
    words = set(pdf_text(pdf, "player-cards-ten").split())
    for name in TEN:
        for word in name.split():
            assert word in words, word  # never "Ironfounders" + "son"
    second = pdf_text(pdf, "player-cards-ten", page=2)
    assert "Cheery" in second and urls[9] in second
