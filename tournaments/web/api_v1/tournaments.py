"""API v1: tournaments, their entries (with check-in), pairings, standings and statistics.

Each operation gates first with the old API's gate (``access_tournament_public``: a
tournament is public once created; an unknown slug is a 404), answers 304 if the reader
holds the tournament's state version (not the entries: check-in does not bump it), then
calls the old API's loader. A draft or unknown round is a 404, as in the old API (``NoSuchRound``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.utils import timezone
from ninja import Router
from ninja.pagination import PageNumberPagination, paginate

from thud_site.conditional import answer_if_unchanged
from thud_site.http import HtmxHttpRequest
from thud_site.page_cache import CachedPage
from thud_site.problems import INVALID, NOT_FOUND
from tournaments.models.tournament import Tournament
from tournaments.organising.checkin import entries_with_absences
from tournaments.permissions.tournament_gates import access_tournament_public
from tournaments.reports import loaders
from tournaments.rounds.reads import (
    NoSuchRound,
    load_standings,
    points_scheme,
    public_matches,
    standings_json,
)
from tournaments.web.api_v1.schemas import (
    EntryOut,
    PairingOut,
    StandingOut,
    TournamentDetailOut,
    TournamentOut,
    TournamentStatsOut,
    pairing_data,
    stats_data,
)
from tournaments.web.views_api import entry_json

router = Router(tags=["tournaments"])

#: A page of a list: 100 rows unless ``page_size`` asks for fewer (or up to 500).
PAGE_SIZE = 100
MAX_PAGE_SIZE = 500


class Pages(PageNumberPagination):
    def __init__(self, **kwargs) -> None:
        super().__init__(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE, **kwargs)


@router.get("/tournaments", response={200: list[TournamentOut], **INVALID})
@paginate(Pages)
def tournaments(request: HttpRequest):
    return Tournament.objects.order_by("-start_date", "name", "pk")


def _unchanged_since(request: HtmxHttpRequest, tournament: Tournament, kind: str) -> None:
    """A 304 now for a reader holding this answer's version (the tournament's state
    version, as its public pages: ``page_cache``), its query (page, page size) included."""
    params = tuple(sorted(request.GET.lists()))
    etag = CachedPage(
        request, tournament, f"api-v1:{kind}", params=params, now=timezone.now()
    ).etag()
    assert etag is not None  # not a page in the layout: always tagged
    answer_if_unchanged(request, etag)


@router.get("/tournaments/{slug}", response={200: TournamentDetailOut, **NOT_FOUND})
def tournament(request: HtmxHttpRequest, slug: str):
    found = access_tournament_public(slug, request)
    _unchanged_since(request, found, "tournament")
    return TournamentDetailOut(
        **TournamentOut.model_validate(found).model_dump(),
        published_rounds=list(found.round_set.counted().values_list("number", flat=True)),
    )


@router.get("/tournaments/{slug}/entries", response={200: list[EntryOut], **NOT_FOUND, **INVALID})
@paginate(Pages)
def entries(request: HttpRequest, slug: str):
    """The entries in seed order, with check-in and the rounds each sits out."""
    # Check-in does not bump the state version: this answer's ETag is its body's digest.
    return [entry_json(e) for e in entries_with_absences(access_tournament_public(slug, request))]


@router.get(
    "/tournaments/{slug}/rounds/{int:number}/pairings",
    response={200: list[PairingOut], **NOT_FOUND, **INVALID},
)
@paginate(Pages)
def pairings(request: HtmxHttpRequest, slug: str, number: int):
    """A published round's pairings; ``battles`` and ``score`` stay null until the
    result is confirmed. A draft round is a 404, like a missing one."""
    found = access_tournament_public(slug, request)
    _unchanged_since(request, found, f"pairings:{number}")
    try:
        _round, matches = public_matches(found, number)
    except NoSuchRound as exc:
        raise Http404(str(exc)) from exc
    scheme = points_scheme(found)
    return [pairing_data(m, scheme) for m in matches]


@router.get(
    "/tournaments/{slug}/standings", response={200: list[StandingOut], **NOT_FOUND, **INVALID}
)
@paginate(Pages)
def standings(request: HtmxHttpRequest, slug: str):
    found = access_tournament_public(slug, request)
    _unchanged_since(request, found, "standings")
    return standings_json(load_standings(found))


@router.get("/tournaments/{slug}/stats", response={200: TournamentStatsOut, **NOT_FOUND})
def tournament_stats(request: HtmxHttpRequest, slug: str):
    """Battles won by each side over the tournament's confirmed results."""
    found = access_tournament_public(slug, request)
    _unchanged_since(request, found, "stats")
    return {"tournament": found.slug, **stats_data(loaders.tournament_stats(found))}
