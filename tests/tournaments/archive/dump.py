"""Everything a tournament shows the world, as comparable data: every /api/ endpoint of it,
its CSV exports, the text of its PDFs, its records file, crosstable and statistics pages,
and its histories (result versions with their authors, entry changes, absences).

Ids differ between installations and are normalised (``normalise``), nothing else. Run
inside the test process (PostgreSQL) or through ``main`` (``test_round_trip.DUMP``)
``SLUG`` on another database (the SQLite installation): ``main`` prints JSON.
"""

from __future__ import annotations

import io
import json
import re
import sys
from typing import Any

from django.test import Client
from pypdf import PdfReader

from games.models.battle import Battle
from tournaments.archive.document import SETTINGS
from tournaments.models.entries import EntryChange, RoundAbsence
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Entry, Tournament

URL_IDS = re.compile(r"/(battles|players|api/battles|p|matches)/[0-9A-Za-z_-]+")
ID_KEYS = {"id", "player", "player_id", "entry_id", "battle_id", "match_id"}
#: When a PDF was printed ("printed 25 November 2026, 01:31"), not what it says.
PRINTED = re.compile(r"printed .*")


def normalise(value: Any, slug: str) -> Any:
    if isinstance(value, dict):
        return {
            k: "ID" if k in ID_KEYS and isinstance(v, int) else normalise(v, slug)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [normalise(v, slug) for v in value]
    if isinstance(value, str):
        return URL_IDS.sub(r"/\1/N", value.replace(slug, "SLUG"))
    return value


def pdf_text(content: bytes) -> list[str]:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    return [PRINTED.sub("printed …", line) for line in text.splitlines()]


def page_text(html: str) -> str:
    """A page's main content with tags, tokens and ids stripped."""
    main = html.split("<main", 1)[-1].split("</main>", 1)[0]
    main = re.sub(r"csrfmiddlewaretoken\" value=\"[^\"]+", "", main)
    return re.sub(r"\s+", " ", main)


def dump(slug: str) -> dict[str, Any]:
    client = Client()
    t = Tournament.objects.get(slug=slug)
    out: dict[str, Any] = {}

    def get(url: str) -> bytes:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response.content

    def api(url: str) -> Any:
        return json.loads(get(url))

    out["tournament"] = api(f"/api/tournaments/{slug}/")
    out["standings"] = api(f"/api/tournaments/{slug}/standings")
    out["stats"] = api(f"/api/tournaments/{slug}/stats")
    numbers = list(t.round_set.order_by("number").values_list("number", flat=True))
    out["pairings"] = [api(f"/api/tournaments/{slug}/rounds/{n}/pairings") for n in numbers]
    out["battles"] = api(f"/api/tournaments/{slug}/battles")
    battles = Battle.objects.filter(match__round__tournament=t).order_by(
        "match__round__number", "match__table", "number"
    )
    out["battle"] = [api(f"/api/battles/{b.pk}") for b in battles]
    entries = Entry.objects.filter(tournament=t).order_by("seed")
    out["player_stats"] = [api(f"/api/players/{e.player_id}/stats") for e in entries]
    out["site_stats"] = api("/api/stats")
    out["standings_csv"] = get(f"/t/{slug}/standings.csv").decode()
    out["results_csv"] = get(f"/t/{slug}/results.csv").decode()
    out["records"] = get(f"/t/{slug}/records.txt").decode()
    out["standings_pdf"] = pdf_text(get(f"/t/{slug}/standings.pdf"))
    out["report_pdf"] = pdf_text(get(f"/t/{slug}/report.pdf"))
    out["pairings_pdf"] = [
        pdf_text(get(f"/t/{slug}/rounds/{n}/pairings.pdf")) for n in (numbers[0], numbers[-1])
    ]
    pages = ("crosstable", "stats", "standings", "bracket", "report")
    for page in pages if t.has_knockout else [p for p in pages if p != "bracket"]:
        out[f"{page}_page"] = page_text(get(f"/t/{slug}/{page}/").decode())
    out["versions"] = [
        [v.match.round.number, v.match.table, v.number, v.kind, v.source, v.status, v.reason]
        + [v.entered_by_label, v.entered_at.isoformat(), v.confirmed_by_label]
        + [v.confirmed_at and v.confirmed_at.isoformat(), list(v.survivors)]
        + [v.match.confirmed_version_id == v.pk, v.match.result_status]
        for v in ResultVersion.objects.filter(match__round__tournament=t)
        .select_related("match__round", "entered_by", "confirmed_by", "match")
        .order_by("match__round__number", "match__table", "number")
    ]
    out["entry_changes"] = [
        [c.entry.player.name, c.field, c.before, c.after, c.changed_by_label]
        + [c.changed_at.isoformat()]
        for c in EntryChange.objects.filter(entry__tournament=t)
        .select_related("entry__player", "changed_by")
        .order_by("changed_at", "field")
    ]
    # The rows behind the pages, for what only the organiser's pages show (pairing notes).
    out["tournament_row"] = {
        name: str(getattr(t, name)) for name in SETTINGS + ("start_date", "created_at")
    } | {"slug": "SLUG"}
    out["rounds"] = [
        [r.number, r.stage, r.status, r.seed, str(r.created_at), str(r.published_at)]
        + [str(r.finished_at)]
        for r in t.round_set.order_by("number")
    ]
    out["matches"] = [
        [m.round.number, m.table, m.player_a.player.name, m.player_b and m.player_b.player.name]
        + [m.flags, m.result_status, m.lock_version, str(m.play_started_at)]
        for m in Match.objects.filter(round__tournament=t)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "table")
    ]
    out["entries"] = [
        [e.player.name, e.player.club, str(e.player.country), e.player.rating, e.seed]
        + [e.checked_in, str(e.checked_in_at), e.withdrawn_from_round, e.late_from_round]
        + [e.initial_points, e.knockout_seed]
        for e in entries.select_related("player")
    ]
    out["absences"] = [
        [a.entry.player.name, a.round_number, a.created_at.isoformat()]
        for a in RoundAbsence.objects.filter(entry__tournament=t).order_by("entry__seed")
    ]
    return normalise(out, slug)


def main() -> None:
    """``python -c`` entry on another installation (after ``django.setup()``)."""
    sys.stdout.write(json.dumps(dump(sys.argv[1]), ensure_ascii=False))
