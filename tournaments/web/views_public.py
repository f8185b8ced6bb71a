"""Public, read-only pages: no login needed.

Standings and pairings refresh themselves: their tables are named partials that htmx
re-fetches every few seconds and whenever a ``standings-changed`` event fires.

Lists that grow with the field (players, pairings, standings) show ``PAGE_SIZE`` rows a
page (``?page=N``; a bad or out-of-range N shows the first or last page), so a huge
field costs each request one page, not the whole list.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.paginator import Page, Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest
from thud_site.page_cache import CachedPage
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.organising.checkin import own_attendance
from tournaments.permissions.roles import can_organise, can_referee
from tournaments.permissions.tournament_gates import access_tournament_public, own_entry
from tournaments.rating.reads import shown_ratings
from tournaments.rounds.reads import entry_matches, load_standings, match_score
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


def _page_number(request: HtmxHttpRequest, count: Callable[[], int]) -> int:
    """The number of the page ``?page`` asks for, resolved as ``_page_of`` would, so that
    "?page=x", "?page=1" and no page share one cache key. Without "?page" it is page 1
    whatever the count (every phone's poll): ``count`` is not called."""
    if request.GET.get("page") is None:
        return 1
    return _page_of(request, range(count())).number


def _tournament_public(request: HtmxHttpRequest, t: Tournament, number: int) -> str:
    """The tournament page's part that is the same for every reader: rounds and players."""
    entries = t.entries.select_related("player").order_by("seed", "player__name", "pk")
    page = Paginator(entries, PAGE_SIZE).get_page(number)
    site = shown_ratings((e.player_id for e in page), t.game)
    context = {
        "tournament": t,
        "rounds": _published_rounds(t),
        "page": page,
        "rows": [(e, site.get(e.player_id)) for e in page],
    }
    return render_to_string(
        "tournaments/tournament.html#tournament-public", context, request=request
    )


@require_GET
def tournament(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament page: its public part from the cache, the reader's own controls
    (organiser, referee, their attendance) around it."""
    t = access_tournament_public(slug, request)
    number = _page_number(request, t.entries.count)
    cached = CachedPage(
        request, t, "tournament-public", (number,), in_layout=True, now=timezone.now()
    )
    if (answer := cached.not_modified()) is not None:
        return answer

    def context() -> dict:
        public = cached.body(lambda: _tournament_public(request, t, number))
        return {
            "tournament": t,
            "public": mark_safe(public),  # rendered by our template
            "can_organise": can_organise(request.user, t),
            "can_referee": can_referee(request.user, t),
            "attendance": own_attendance(own_entry(request.user, t)),
        }

    return cached.respond(cached.page("tournaments/tournament.html", context))


def _pairings_table(request: HtmxHttpRequest, t: Tournament, round_: Round, page: int) -> str:
    # rounds.public_matches would load every match of the round; page in SQL instead.
    matches = round_.matches.select_related(
        "player_a__player", "player_b__player", "confirmed_version"
    ).order_by("table")
    shown = Paginator(matches, PAGE_SIZE).get_page(page)
    context = {"tournament": t, "page": shown, "rows": [(m, match_score(m)) for m in shown]}
    return render_to_string(
        "tournaments/round_pairings.html#pairings-table", context, request=request
    )


@require_GET
def round_pairings(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """A published round's pairings; the table from the cache, for htmx's refresh alone."""
    t = access_tournament_public(slug, request)
    rounds = _published_rounds(t)
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise Http404(_("No such published round"))
    page = _page_number(request, round_.matches.count)
    cached = CachedPage(
        request, t, "pairings-table", (number, page), in_layout=not request.htmx, now=timezone.now()
    )
    if (answer := cached.not_modified()) is not None:
        return answer

    def table() -> str:
        return cached.body(lambda: _pairings_table(request, t, round_, page))

    if request.htmx:
        return cached.respond(HttpResponse(table()))

    def context() -> dict:
        return {"tournament": t, "round": round_, "rounds": rounds, "table": mark_safe(table())}

    return cached.respond(cached.page("tournaments/round_pairings.html", context))


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


def _standings_table(request: HtmxHttpRequest, t: Tournament, number: int) -> str:
    """Page ``number`` of the standings table. Ranks need the whole field, so this
    computes all the standings and renders one page."""
    page = Paginator(load_standings(t), PAGE_SIZE).get_page(number)
    rows = _standing_lines(t, page.object_list)
    context = {
        "tournament": t,
        "page": page,
        "rows": rows,
        "columns": [(TIEBREAK_LABELS[key], TIEBREAK_HELP[key], key) for key in COLUMNS],
        "kept": _compact_columns(t),
    }
    return render_to_string("tournaments/standings.html#standings-table", context, request=request)


#: The standings' figure columns, in the table's order.
COLUMNS = ("match_points", "differential", "buchholz", "sonneborn_berger", "battles_won", "seed")


def _compact_columns(t: Tournament) -> set[str]:
    """The columns the compact view keeps besides rank and name: the points and the
    first tiebreak of this tournament's order."""
    first = next((key for key in t.tiebreak_order if key != "match_points"), None)
    return {"match_points", first} if first else {"match_points"}


@require_GET
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The standings page; its table from the cache (``page_cache``), alone for htmx.

    Every phone in the hall polls this page, and rendering 200 rows costs far more
    than reading them from the cache.
    """
    t = access_tournament_public(slug, request)
    number = _page_number(request, t.entries.count)
    cached = CachedPage(
        request, t, "standings-table", (number,), in_layout=not request.htmx, now=timezone.now()
    )
    if (answer := cached.not_modified()) is not None:
        return answer

    def table() -> str:
        return cached.body(lambda: _standings_table(request, t, number))

    if request.htmx:
        return cached.respond(HttpResponse(table()))

    def context() -> dict:
        return {
            "tournament": t,
            "order": [TIEBREAK_LABELS[key] for key in t.tiebreak_order],
            "legend": [(TIEBREAK_LABELS[key], TIEBREAK_HELP[key]) for key in t.tiebreak_order],
            "table": mark_safe(table()),  # rendered above by our template
        }

    return cached.respond(cached.page("tournaments/standings.html", context))


@require_GET
def player(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    t = access_tournament_public(slug, request)
    entry = t.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None:
        raise Http404(_("No such player in this tournament"))
    row = next(r for r in load_standings(t) if r.entry_id == entry.pk)
    history = [_as_seen_by(entry.pk, m) for m in entry_matches(entry)]
    context = {"tournament": t, "entry": entry, "row": row, "history": history}
    return render(request, "tournaments/player.html", context)
