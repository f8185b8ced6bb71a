"""PDF and CSV downloads: what they contain, who may have them, what they cost."""

from __future__ import annotations

import csv
import io
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from thud_site.palette import LIGHT
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.reports.pdf import static_file, static_files_fetcher
from tournaments.results.corrections import decide_result
from tournaments.results.entry import enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import STANDINGS_FIELDS

pytestmark = pytest.mark.django_db

OUTPUT = Path(settings.BASE_DIR) / "test-output"
NAMES = ["Agnes Nitt", "Detritus", "Carrot Ironfoundersson", "Angua von Überwald", "Nobby Nobbs"]

# The stable columns of a Thud tournament's results.csv (README "CSV formats").
THUD_RESULTS_HEADER = (
    "round,table,player_a,player_b,battle1_dwarfs,battle1_trolls,battle2_dwarfs,"
    "battle2_trolls,score_a,score_b,status"
)


def field(names: list[str], **fields) -> Tournament:
    t = TournamentFactory(rounds=3, **fields)
    for seed, name in enumerate(names, start=1):
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name))
    return t


def played(names: list[str] = NAMES, survivors=(10, 1, 5, 2)) -> Tournament:
    """Round 1 published, every real match confirmed with ``survivors``."""
    t = field(names)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    for m in r.matches.filter(player_b__isnull=False):
        record_final_result(m, survivors=survivors, by=None, source="import", now=timezone.now())
    return t


def pdf_text(response) -> tuple[PdfReader, str]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(response.content))
    # Words only: a long name may wrap inside a narrow cell.
    return reader, " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def screenshot(response, name: str) -> Path:
    """Page 1 of the PDF as test-output/NAME-1.png, drawn by poppler's pdftoppm."""
    OUTPUT.mkdir(exist_ok=True)
    pdf = OUTPUT / f"{name}.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(OUTPUT / name)],
        check=True,
        timeout=60,
    )
    png = OUTPUT / f"{name}-1.png"
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 2000
    return png


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def organiser_client(client, t: Tournament):
    client.force_login(t.owner)
    return client


# ---------------------------------------------------------------- PDF


def test_standings_pdf_lists_every_player_and_renders_to_png(client):
    t = played()
    reader, text = pdf_text(client.get(f"/t/{t.slug}/standings.pdf"))
    assert len(reader.pages) == 1
    assert "Standings" in text and t.name in text
    for name in NAMES:
        assert name in text
    # The page counter comes from static/css/print.css: the stylesheet reached WeasyPrint.
    assert "1 / 1" in text
    screenshot(client.get(f"/t/{t.slug}/standings.pdf"), "standings-pdf")


def test_report_pdf_has_the_leaders_crosstable_statistics_and_charts(client):
    t = played()  # round 1 of 3
    page = client.get(f"/t/{t.slug}/report/")
    assert f'href="/t/{t.slug}/report.pdf"' in page.content.decode()
    response = client.get(f"/t/{t.slug}/report.pdf")
    reader, text = pdf_text(response)
    assert "Interim report" in text and t.name in text
    assert "Leaders after round 1 of 3" in text and "Podium" not in text
    for name in NAMES:
        assert name in text
    assert "Crosstable" in text and "Statistics" in text
    assert "Rank after each round" in text and "Show the chart" not in text
    screenshot(response, "report-pdf")


def test_report_pdf_of_a_closed_tournament_has_the_podium_and_draws_the_chart_colours(client):
    t = played()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    response = client.get(f"/t/{t.slug}/report.pdf")
    _, text = pdf_text(response)
    assert "Final report" in text and "Podium" in text and "Leaders" not in text
    # The charts' colours are SVG attributes, so they reach the paper: the light palette's
    # first series (the leader's line, the first bar) and the text colour are drawn.
    colours = pdf_colours(response, "report-pdf-final")
    assert _near(LIGHT.series[0], colours) and _near(LIGHT.series[1], colours)


def pdf_colours(response, name: str) -> set[tuple[int, int, int]]:
    """Every colour of every page of the PDF, drawn at 100 dpi by pdftoppm."""
    OUTPUT.mkdir(exist_ok=True)
    pdf = OUTPUT / f"{name}.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "100", str(pdf), str(OUTPUT / name)], check=True, timeout=60
    )
    colours: set[tuple[int, int, int]] = set()
    for png in OUTPUT.glob(f"{name}-*.png"):
        with Image.open(png) as image:
            colours |= {rgb for _count, rgb in image.convert("RGB").getcolors(1 << 24)}
    return colours


def _near(colour: str, drawn: set[tuple[int, int, int]]) -> bool:
    target = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return any(sum(abs(a - b) for a, b in zip(rgb, target, strict=True)) <= 6 for rgb in drawn)


def test_report_pdf_of_an_unknown_tournament_is_404(client):
    assert client.get("/t/no-such-event/report.pdf").status_code == 404


def test_standings_pdf_of_a_big_field_runs_over_several_pages(client):
    names = [f"Troll {i:03d}" for i in range(1, 91)]
    t = field(names)
    reader, text = pdf_text(client.get(f"/t/{t.slug}/standings.pdf"))
    pages = len(reader.pages)
    assert pages >= 2
    assert f"1 / {pages}" in text and f"{pages} / {pages}" in text
    assert all(name in text for name in names)


def test_standings_pdf_follows_the_request_language(client):
    t = played()
    _, text = pdf_text(client.get(f"/t/{t.slug}/standings.pdf", HTTP_ACCEPT_LANGUAGE="it"))
    assert "Classifica" in text and "Standings" not in text
    _, text = pdf_text(client.get(f"/t/{t.slug}/standings.pdf", HTTP_ACCEPT_LANGUAGE="nb"))
    assert "Tabell" in text


def test_pairings_pdf_lists_the_round_with_the_bye(client):
    t = played()
    reader, text = pdf_text(client.get(f"/t/{t.slug}/rounds/1/pairings.pdf"))
    assert len(reader.pages) == 1
    assert "Round 1" in text and "bye" in text
    for name in NAMES:
        assert name in text
    screenshot(client.get(f"/t/{t.slug}/rounds/1/pairings.pdf"), "pairings-pdf")


def test_pairings_pdf_of_a_cavalli_tournament_speaks_of_white_and_black(client):
    t = TournamentFactory(rounds=3, game="cavalli")
    for seed, name in enumerate(NAMES[:4], start=1):
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name))
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    _, text = pdf_text(client.get(f"/t/{t.slug}/rounds/1/pairings.pdf"))
    assert "Player A has white in game 1 and black in game 2." in text
    assert "Player A (white in game 1)" in text and "Player B (black in game 1)" in text
    assert "dwarfs" not in text and "trolls" not in text


def test_draft_round_pairings_pdf_is_404_for_the_public_and_shown_to_its_referees(client):
    t = field(NAMES[:4])
    pair_next_round(t, by=None, now=timezone.now())
    url = f"/t/{t.slug}/rounds/1/pairings.pdf"
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    referee = UserFactory()
    t.referees.add(referee)
    client.force_login(referee)
    _, text = pdf_text(client.get(url))
    assert NAMES[0] in text


def test_pairings_pdf_of_a_missing_round_or_tournament_is_404(client):
    t = played()
    assert client.get(f"/t/{t.slug}/rounds/9/pairings.pdf").status_code == 404
    assert client.get("/t/nope/rounds/1/pairings.pdf").status_code == 404
    assert client.get("/t/nope/standings.pdf").status_code == 404


def test_slips_pdf_only_for_referees_and_organisers(client):
    t = played()
    url = f"/t/{t.slug}/rounds/1/slips.pdf"
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    reader, text = pdf_text(organiser_client(client, t).get(url))
    assert "Result slips" in text and "Signatures" in text
    assert "Round 1, table 1" in text and "Round 1, table 2" in text
    bye = Match.objects.get(round__tournament=t, player_b__isnull=True)
    for name in set(NAMES) - {bye.player_a.player.name}:
        assert name in text
    assert bye.player_a.player.name not in text  # a bye needs no slip
    screenshot(client.get(url), "slips-pdf")


def test_static_fetcher_serves_only_our_static_files():
    assert static_file("/static/css/print.css") == Path(settings.BASE_DIR, "static/css/print.css")
    assert static_file("/static/../thud_site/settings.py") is None
    assert static_file("/static/css/missing.css") is None
    fetcher = static_files_fetcher()
    response = fetcher.fetch("http://testserver/static/css/print.css")
    assert response.content_type == "text/css" and b"@page" in response.read()
    for url in ("http://169.254.169.254/latest/", "file:///etc/passwd", "http://testserver/admin/"):
        with pytest.raises(ValueError):
            fetcher.fetch(url)


# ---------------------------------------------------------------- CSV


def test_standings_csv_has_the_export_command_columns_and_rows(client):
    from django.core.management import call_command

    t = played()
    rows = csv_rows(client.get(f"/t/{t.slug}/standings.csv"))
    assert rows[0] == list(STANDINGS_FIELDS)
    assert len(rows) == 1 + len(NAMES)
    out = io.StringIO()
    call_command("export_standings", t.slug, stdout=out)
    assert list(csv.reader(io.StringIO(out.getvalue()))) == rows
    top = dict(zip(rows[0], rows[1], strict=True))
    assert top["rank"] == "1" and top["match_points"] == "2" and top["differential"] == "9"


def test_standings_csv_is_language_neutral(client):
    t = played()
    english = client.get(f"/t/{t.slug}/standings.csv").content
    italian = client.get(f"/t/{t.slug}/standings.csv", HTTP_ACCEPT_LANGUAGE="it").content
    assert english == italian


def test_csv_cells_that_look_like_formulas_are_neutralised(client):
    t = played(['=HYPERLINK("http://evil")', "@SUM(A1)", "Plain", "+cmd"])
    standings = csv_rows(client.get(f"/t/{t.slug}/standings.csv"))
    names = {row[1] for row in standings[1:]}
    assert names == {'\'=HYPERLINK("http://evil")', "'@SUM(A1)", "Plain", "'+cmd"}
    # Negative differentials stay numbers.
    assert "-9" in {row[4] for row in standings[1:]}
    results = csv_rows(client.get(f"/t/{t.slug}/results.csv"))
    cells = {cell for row in results[1:] for cell in row[2:4]}
    assert cells == {'\'=HYPERLINK("http://evil")', "'@SUM(A1)", "Plain", "'+cmd"}


def test_results_csv_lists_confirmed_results_and_byes_only(client):
    t = field(NAMES)  # five players: a bye in every round
    r1 = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    m1, m2 = r1.matches.filter(player_b__isnull=False).order_by("table")
    record_final_result(m1, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now())
    # m2: entered but not confirmed yet -> not in the file.
    enter_result(
        m2,
        survivors=(3, 4, 20, 0),
        by=UserFactory(),
        expected_lock_version=None,
        now=timezone.now(),
    )

    rows = csv_rows(client.get(f"/t/{t.slug}/results.csv"))
    assert rows[0] == THUD_RESULTS_HEADER.split(",")
    bye = r1.matches.get(player_b__isnull=True)
    a, b = m1.player_a.player.name, m1.player_b.player.name
    # A: 10 dwarfs in battle 1, 2 trolls (8) in battle 2; B: 1 troll (4), 5 dwarfs.
    expected = {
        (str(m1.table), a, b, "10", "1", "5", "2", "18", "9", "confirmed"),
        (str(bye.table), bye.player_a.player.name, "", "", "", "", "", "", "", "bye"),
    }
    assert {(row[1], *row[2:]) for row in rows[1:]} == expected
    assert {row[0] for row in rows[1:]} == {"1"}


def test_results_csv_of_a_cavalli_tournament_names_white_and_black(client):
    t = field(NAMES[:2], game="cavalli")
    (m,) = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all()
    record_final_result(
        m, survivors=(3000, 1200, 1000, 2600), by=None, source="import", now=timezone.now()
    )
    header, row = csv_rows(client.get(f"/t/{t.slug}/results.csv"))
    assert header == [
        "round",
        "table",
        "player_a",
        "player_b",
        "battle1_white",
        "battle1_black",
        "battle2_white",
        "battle2_black",
        "score_a",
        "score_b",
        "status",
    ]
    assert row[4:] == ["3000", "1200", "1000", "2600", "5600", "2200", "confirmed"]


def test_results_csv_marks_an_organisers_decision(client):
    t = played(NAMES[:2])
    m = Match.objects.get(round__tournament=t)
    decide_result(
        m,
        survivors=(0, 8, 32, 0),
        by=t.owner,
        reason="clock fault",
        expected_lock_version=None,
        now=timezone.now(),
    )
    rows = csv_rows(client.get(f"/t/{t.slug}/results.csv"))
    assert rows[1][-3:] == ["0", "64", "decision"]


def test_csv_of_unknown_tournament_is_404(client):
    assert client.get("/t/nope/standings.csv").status_code == 404
    assert client.get("/t/nope/results.csv").status_code == 404


# ---------------------------------------------------------------- links and cost


def test_pages_link_their_downloads(client):
    t = played()
    standings = client.get(f"/t/{t.slug}/standings/").content.decode()
    for path in ("standings.pdf", "standings.csv", "results.csv"):
        assert f'href="/t/{t.slug}/{path}"' in standings
    pairings = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert f'href="/t/{t.slug}/rounds/1/pairings.pdf"' in pairings
    organiser = organiser_client(client, t).get(f"/manage/t/{t.slug}/rounds/1/")
    body = organiser.content.decode()
    assert f'href="/t/{t.slug}/rounds/1/slips.pdf"' in body
    assert f'href="/t/{t.slug}/rounds/1/pairings.pdf"' in body
    referee = UserFactory()
    t.referees.add(referee)
    client.force_login(referee)
    body = client.get(f"/referee/t/{t.slug}/rounds/1/").content.decode()
    assert f'href="/t/{t.slug}/rounds/1/slips.pdf"' in body


def _queries(client, url: str) -> int:
    assert client.get(url).status_code == 200  # warm: the session, the cached site pieces
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "path",
    ["standings.pdf", "rounds/1/pairings.pdf", "standings.csv", "results.csv", "report.pdf"],
)
def test_download_queries_do_not_grow_with_players(client, path):
    small = played(NAMES[:4])
    big = played([f"Dwarf {i}" for i in range(24)])
    assert _queries(client, f"/t/{small.slug}/{path}") == _queries(client, f"/t/{big.slug}/{path}")


def test_slips_queries_do_not_grow_with_players(client):
    small = played(NAMES[:4])
    big = played([f"Dwarf {i}" for i in range(24)])
    big.owner = small.owner
    big.save()
    client.force_login(small.owner)
    assert _queries(client, f"/t/{small.slug}/rounds/1/slips.pdf") == _queries(
        client, f"/t/{big.slug}/rounds/1/slips.pdf"
    )
