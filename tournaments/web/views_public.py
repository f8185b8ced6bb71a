"""Public, read-only pages: no login needed.

Standings and pairings refresh themselves: their tables are named partials that htmx
re-fetches every few seconds and whenever a ``standings-changed`` event fires.

Lists that grow with the field (players, pairings, standings) show ``PAGE_SIZE`` rows a
page (``?page=N``; a bad or out-of-range N shows the first or last page), so a huge
field costs each request one page, not the whole list.
"""

from __future__ import annotations

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.organising.checkin import own_attendance
from tournaments.permissions.roles import can_organise, can_referee
from tournaments.permissions.tournament_gates import access_tournament_public, own_entry
from tournaments.rating.reads import shown_ratings
from tournaments.rounds.reads import (
    entry_matches,
    load_standings,
    match_score,
    standings_fingerprint,
)
from tournaments.standings import tiebreaks

PAGE_SIZE = 100

# The tiebreak table's words, translated when shown (headers, hover titles, the legend).
TIEBREAK_LABELS = {t.key: gettext_lazy(t.label) for t in tiebreaks.TIEBREAKS}
TIEBREAK_HELP = {t.key: gettext_lazy(t.help) for t in tiebreaks.TIEBREAKS}


def _published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.counted().order_by("number"))


def _page_of(request: HtmxHttpRequest, rows) -> Page:
    """The requested page of ``rows`` (a queryset is sliced in SQL)."""
    return Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))


def _page(request: HtmxHttpRequest, template: str, partial: str, context: dict) -> HttpResponse:
    """The whole page, or only the named partial for htmx's polling refresh."""
    if request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, context)


def _as_seen_by(entry_id: int, match) -> dict:
    """One line of a player's history: opponent, own and opponent's points, outcome."""
    is_a = match.player_a_id == entry_id
    line = {
        "match": match,
        "opponent": match.player_b if is_a else match.player_a,
        "first_side_first": is_a,
        "outcome": _("bye") if match.is_bye else _("awaiting result"),
    }
    score = match_score(match)
    if score is not None:
        mine, theirs = (
            (score.a_points, score.b_points) if is_a else (score.b_points, score.a_points)
        )
        line.update(mine=sum(mine), theirs=sum(theirs))
        if score.outcome == "draw":
            line["outcome"] = _("draw")
        else:
            line["outcome"] = _("win") if (score.outcome == "a") == is_a else _("loss")
    return line


@require_GET
def tournament(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    entries = t.entries.select_related("player").order_by("seed", "player__name", "pk")
    page = _page_of(request, entries)
    site = shown_ratings((e.player_id for e in page), t.game)
    context = {
        "tournament": t,
        "rounds": _published_rounds(t),
        "page": page,
        "rows": [(e, site.get(e.player_id)) for e in page],
        "can_organise": can_organise(request.user, t),
        "can_referee": can_referee(request.user, t),
        "attendance": own_attendance(own_entry(request.user, t)),
    }
    return render(request, "tournaments/tournament.html", context)


@require_GET
def round_pairings(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    t = access_tournament_public(slug)
    rounds = _published_rounds(t)
    # rounds.public_matches would load every match of the round; page in SQL instead.
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise Http404(_("No such published round"))
    matches = round_.matches.select_related(
        "player_a__player", "player_b__player", "confirmed_version"
    ).order_by("table")
    page = _page_of(request, matches)
    context = {
        "tournament": t,
        "round": round_,
        "rounds": rounds,
        "page": page,
        "rows": [(m, match_score(m)) for m in page],
    }
    return _page(request, "tournaments/round_pairings.html", "pairings-table", context)


def _standing_lines(t: Tournament, rows) -> list[tuple]:
    """(row, player page URL, label of the rule that separated it) for each of ``rows``.

    Worked out here once rather than per row in the template (a reverse() and a loop
    over the labels per row doubled the render time for 200 players).
    """
    prefix = reverse("player", args=[t.slug, 0]).removesuffix("0/")
    withdrawn = set(
        t.entries.filter(withdrawn_from_round__isnull=False).values_list("pk", flat=True)
    )
    lines = []
    for row in rows:
        rule = row.separated_by
        label = TIEBREAK_LABELS[rule] if rule and rule != "match_points" else ""
        lines.append((row, f"{prefix}{row.entry_id}/", label, row.entry_id in withdrawn))
    return lines


STANDINGS_CACHE_S = 60


def _standings_table(request: HtmxHttpRequest, t: Tournament) -> str:
    """The rendered page of the standings table, from the cache when its inputs are unchanged.

    Ranks need the whole field, so a miss computes all the standings and renders one
    page; each page is cached under its own key. When a new result invalidates a page,
    one request renders it while concurrent ones get the previous one (one result
    behind at most; their next poll brings the new one) instead of every polling phone
    rendering at the same moment.
    """
    # The page number is resolved against the entry count first (one small query), so
    # "?page=x", "?page=1" and no page share one cache key. Without "?page" it is page 1
    # whatever the count (every phone's poll): no query.
    if request.GET.get("page") is None:
        number = 1
    else:
        number = _page_of(request, range(t.entries.count())).number
    # The creation time keeps scopes apart across databases that reuse primary keys.
    scope = f"standings-table:{t.pk}:{t.created_at.timestamp()}:{get_language()}:{number}"
    key = f"{scope}:{standings_fingerprint(t)}"
    table = cache.get(key)
    if table is not None:
        return table
    previous = cache.get(f"{scope}:latest")
    if previous is not None and not cache.add(f"{scope}:rendering", 1, 5):
        return previous
    page = Paginator(load_standings(t), PAGE_SIZE).get_page(number)
    rows = _standing_lines(t, page.object_list)
    context = {
        "tournament": t,
        "page": page,
        "rows": rows,
        "columns": [(TIEBREAK_LABELS[key], TIEBREAK_HELP[key], key) for key in COLUMNS],
        "kept": _compact_columns(t),
    }
    table = render_to_string("tournaments/standings.html#standings-table", context, request=request)
    cache.set_many({key: table, f"{scope}:latest": table}, STANDINGS_CACHE_S)
    cache.delete(f"{scope}:rendering")
    return table


#: The standings' figure columns, in the table's order.
COLUMNS = ("match_points", "differential", "buchholz", "sonneborn_berger", "battles_won", "seed")


def _compact_columns(t: Tournament) -> set[str]:
    """The columns the compact view keeps besides rank and name: the points and the
    first tiebreak of this tournament's order."""
    first = next((key for key in t.tiebreak_order if key != "match_points"), None)
    return {"match_points", first} if first else {"match_points"}


@require_GET
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The standings page; its table is cached under a fingerprint of its inputs.

    Every phone in the hall polls this page, and rendering 200 rows costs far more
    than the three small queries of the fingerprint, which changes with any result.
    """
    t = access_tournament_public(slug)
    table = _standings_table(request, t)
    if request.htmx:
        return HttpResponse(table)
    order = [TIEBREAK_LABELS[key] for key in t.tiebreak_order]
    legend = [(TIEBREAK_LABELS[key], TIEBREAK_HELP[key]) for key in t.tiebreak_order]
    context = {
        "tournament": t,
        "order": order,
        "legend": legend,
        "table": mark_safe(table),
    }  # rendered above by our template
    return render(request, "tournaments/standings.html", context)


@require_GET
def player(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    t = access_tournament_public(slug)
    entry = t.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None:
        raise Http404(_("No such player in this tournament"))
    row = next(r for r in load_standings(t) if r.entry_id == entry.pk)
    history = [_as_seen_by(entry.pk, m) for m in entry_matches(entry)]
    context = {"tournament": t, "entry": entry, "row": row, "history": history}
    return render(request, "tournaments/player.html", context)
