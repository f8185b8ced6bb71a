"""Read-only JSON API. Only published rounds are visible; errors are JSON too."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest, json_404
from tournaments.models.rounds import Match
from tournaments.models.tournament import DEFAULT_GAME, Entry, Tournament
from tournaments.organising.checkin import entries_with_absences
from tournaments.permissions.tournament_gates import access_player_public, access_tournament_public
from tournaments.reports import loaders
from tournaments.rounds.reads import (
    NoSuchRound,
    load_standings,
    match_score,
    points_scheme,
    public_matches,
    standings_json,
)
from tournaments.rules.scales import api_key
from tournaments.standings.scoring import MatchScore, PointsScheme
from tournaments.standings.table import match_points_of


def tournament_json(t: Tournament) -> dict:
    return {
        "slug": t.slug,
        "name": t.name,
        "format": t.format,
        "variant": t.variant,
        "capture_policy": t.capture_policy,
        "rounds": t.rounds,
        "status": t.status,
        "venue": t.venue,
        "start_date": t.start_date.isoformat() if t.start_date else None,
        "end_date": t.end_date.isoformat() if t.end_date else None,
        "check_in_required": t.check_in_required,
    }


@require_GET
def tournament_list(request: HtmxHttpRequest) -> JsonResponse:
    data = [tournament_json(t) for t in Tournament.objects.all()]
    return JsonResponse(data, safe=False)


@require_GET
@json_404
def tournament_detail(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = access_tournament_public(slug, request)
    data = tournament_json(tournament)
    data["published_rounds"] = list(tournament.round_set.counted().values_list("number", flat=True))
    data["entries"] = [entry_json(e) for e in entries_with_absences(tournament)]
    return JsonResponse(data)


def entry_json(e: Entry) -> dict:
    """One entry, with check-in and the rounds it sits out (``entries_with_absences``)."""
    return {
        "name": e.player.name,
        "seed": e.seed,
        "checked_in": e.checked_in,
        "withdrawn_from_round": e.withdrawn_from_round,
        "not_playing_rounds": [a.round_number for a in e.absences.all()],
    }


def pairing_frame(m: Match) -> tuple[dict, MatchScore | None]:
    """A pairing's fields whatever the API (``battles`` and ``score`` null until the result
    is confirmed), and its confirmed score, if any: the old API's and v1's."""
    data: dict = {
        "table": m.table,
        "player_a": m.player_a.player.name,
        "player_b": m.player_b.player.name if m.player_b else None,
        "result_status": m.result_status,
        "battles": None,
        "score": None,
    }
    return data, match_score(m) if m.player_b else None


def score_json(score: MatchScore, scheme: PointsScheme) -> dict:
    """A confirmed match's score, as both APIs answer it."""
    a_mp, b_mp = match_points_of(score.outcome, scheme)
    return {
        "a_points": sum(score.a_points),
        "b_points": sum(score.b_points),
        "differential": score.differential,
        "outcome": score.outcome,
        "a_match_points": a_mp,
        "b_match_points": b_mp,
    }


def pairing_json(m: Match, scheme: PointsScheme) -> dict:
    """One pairing; ``battles`` and ``score`` stay null until the result is confirmed."""
    data, score = pairing_frame(m)
    a, b = data["player_a"], data["player_b"]
    if score is not None:
        assert m.confirmed_version is not None  # match_score scores the confirmed version
        survivors = m.confirmed_version.survivors
        scale = survivors.scale
        data["battles"] = [
            {
                "battle": n,
                **{api_key(scale, "{name}", side): player for side, player in enumerate(players)},
                **{
                    api_key(scale, "{name}_{numbers}", side): number
                    for side, number in enumerate(survivors.battle(n))
                },
                **{
                    api_key(scale, "{each}_points", side): points
                    for side, points in enumerate(survivors.battle_points(n))
                },
            }
            for n, players in ((1, (a, b)), (2, (b, a)))
        ]
        data["score"] = score_json(score, scheme)
    return data


@require_GET
@json_404
def round_pairings(request: HtmxHttpRequest, slug: str, number: int) -> JsonResponse:
    tournament = access_tournament_public(slug, request)
    try:
        _round, matches = public_matches(tournament, number)
    except NoSuchRound as exc:
        raise Http404(str(exc)) from exc
    scheme = points_scheme(tournament)
    return JsonResponse([pairing_json(m, scheme) for m in matches], safe=False)


@require_GET
@json_404
def standings(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = access_tournament_public(slug, request)
    return JsonResponse(standings_json(load_standings(tournament)), safe=False)


@require_GET
def site_stats(request: HtmxHttpRequest) -> JsonResponse:
    """Battles won by each side over every confirmed result on the site."""
    return JsonResponse(loaders.site_stats(game=DEFAULT_GAME).as_json())


@require_GET
@json_404
def tournament_stats(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = access_tournament_public(slug, request)
    data = loaders.tournament_stats(tournament).as_json()
    return JsonResponse({"tournament": tournament.slug, **data})


@require_GET
@json_404
def player_stats(request: HtmxHttpRequest, player_id: int) -> JsonResponse:
    """One player's battles in every tournament, from their point of view."""
    player = access_player_public(player_id)
    data = loaders.player_stats(player, game=DEFAULT_GAME).as_json()
    return JsonResponse({"player": player.pk, "name": player.name, **data})
