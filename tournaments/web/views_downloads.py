"""Downloads: standings and results as CSV, standings, pairings, result slips and player
cards as PDF.

Access follows the HTML page showing the same thing (``permissions``): standings and
results of published rounds are public, a draft round's pairings only for its referees,
result slips only for referees and organisers, player cards (secret links) only for
organisers. CSV files are language-neutral; a PDF is
in the request's language.
"""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from thud_site.http import AuthedRequest, HtmxHttpRequest
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.permissions.tournament_gates import (
    access_round_for_referee,
    access_round_public,
    access_tournament_for_organiser,
    access_tournament_public,
)
from tournaments.reports import exports, loaders
from tournaments.reports.pdf import render_pdf
from tournaments.reports.pdf_cache import (
    cached_pdf,
    report_version,
    round_fingerprint,
    tournament_version,
)
from tournaments.reports.player_cards import player_cards
from tournaments.reports.table_cards import table_cards
from tournaments.rounds.reads import load_standings
from tournaments.web.views_public import TIEBREAK_LABELS


def _csv_response(write, tournament: Tournament, filename: str) -> HttpResponse:
    buffer = io.StringIO()
    write(buffer, tournament, lineterminator="\r\n")  # RFC 4180
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def standings_csv(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    return _csv_response(exports.write_standings_csv, t, f"{t.slug}-standings.csv")


@require_GET
def results_csv(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    return _csv_response(exports.write_results_csv, t, f"{t.slug}-results.csv")


@require_GET
def standings_pdf(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)

    def render() -> bytes:
        context = {
            "tournament": t,
            "rows": load_standings(t),
            "labels": TIEBREAK_LABELS,
            "order": [TIEBREAK_LABELS[key] for key in t.tiebreak_order],
            "generated_at": timezone.now(),
        }
        return render_pdf(request, "tournaments/pdf/standings.html", context)

    return cached_pdf(
        request,
        document="standings",
        version=tournament_version(t),
        render_pdf=render,
        filename=f"{t.slug}-standings.pdf",
    )


@require_GET
def report_pdf(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The report page (podium or leaders, standings, crosstable, statistics) as a PDF."""
    t = access_tournament_public(slug)

    def render() -> bytes:
        context = loaders.report_context(t) | {"generated_at": timezone.now()}
        return render_pdf(request, "tournaments/pdf/report.html", context)

    return cached_pdf(
        request,
        document="report",
        version=report_version(t),
        render_pdf=render,
        filename=f"{t.slug}-report.pdf",
    )


def _round_pdf(request: HtmxHttpRequest, round_: Round, document: str) -> HttpResponse:
    def render() -> bytes:
        context = {
            "tournament": round_.tournament,
            "round": round_,
            "matches": round_.matches.select_related("player_a__player", "player_b__player"),
            "generated_at": timezone.now(),
        }
        return render_pdf(request, f"tournaments/pdf/{document}.html", context)

    return cached_pdf(
        request,
        document=document,
        version=round_fingerprint(round_),
        render_pdf=render,
        filename=f"{round_.tournament.slug}-round-{round_.number}-{document}.pdf",
    )


@require_GET
def pairings_pdf(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_pdf(request, access_round_public(request.user, slug, number), "pairings")


@login_required
@require_GET
def slips_pdf(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    return _round_pdf(request, access_round_for_referee(request.user, slug, number), "slips")


@login_required
@require_GET
def player_cards_pdf(request: AuthedRequest, slug: str) -> HttpResponse:
    """A card per player with a QR code of their personal link: for organisers only (the
    links are secrets), never cached (a revoked link must not print again)."""
    t = access_tournament_for_organiser(request.user, slug)
    context = {
        "tournament": t,
        "cards": player_cards(t, request.build_absolute_uri),
        "generated_at": timezone.now(),
    }
    response = HttpResponse(
        render_pdf(request, "tournaments/pdf/player_cards.html", context),
        content_type="application/pdf",
    )
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-player-cards.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def table_cards_pdf(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    """A card per table of a round, with a QR code of its referee page (for referees and
    organisers, like the result slips)."""
    round_ = access_round_for_referee(request.user, slug, number)
    context = {
        "tournament": round_.tournament,
        "round": round_,
        "cards": table_cards(round_, request.build_absolute_uri),
        "generated_at": timezone.now(),
    }
    response = HttpResponse(
        render_pdf(request, "tournaments/pdf/table_cards.html", context),
        content_type="application/pdf",
    )
    name = f"{round_.tournament.slug}-round-{round_.number}-table-cards.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
