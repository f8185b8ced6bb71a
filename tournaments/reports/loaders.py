"""The adapter between the database and the pure statistics, crosstable and chart functions.

Terminology and invariants:
- Only public rounds (published or finished) are read, as on every public page; a result
  counts once its match points at a confirmed version (``Match.confirmed_version``),
  whatever its source (online, over the board, imported). Byes are no battle. The site's
  and a player's statistics leave out the copies (``Match.objects.sitewide``); a
  tournament's own pages count its own results, a copy's too.
- Each loader reads plain values in a constant number of queries, whatever the number of
  players, matches or tournaments: the side statistics one query, a tournament's event data
  (entries, matches, rounds) three.
- ``report_context`` is everything ``templates/tournaments/report_body.html`` needs, so the
  report's body can be rendered on its own (a PDF reuses it). Whether it shows a podium is
  ``stage.report_stage``'s decision, and only its.
- Each chart comes as a ``Figure`` (``thud_site.svg``): the SVG with its caption and its data as a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from thud_site.svg import Figure, caption_id
from tournaments.models.people import Player
from tournaments.models.rounds import Match
from tournaments.models.tournament import Entry, Tournament
from tournaments.reports import charts
from tournaments.reports.crosstable import CrossMatch, CrossRow, crosstable, ranks_by_round
from tournaments.reports.stage import Stage, report_stage
from tournaments.reports.stats import SideStats, percentage, player_side_stats, side_stats
from tournaments.rounds.reads import points_scheme
from tournaments.rules.result import MatchResult
from tournaments.rules.scales import FIELDS
from tournaments.standings.table import EntrantRecord, MatchRecord, StandingRow, compute_standings

SURVIVOR_COLUMNS = tuple(f"confirmed_version__{name}" for name in FIELDS)
# The rank chart stays readable with this many lines; the rest are in the crosstable.
RANK_CHART_LINES = 16
PODIUM = 3


def _confirmed_matches(matches, game: str):
    # Side statistics are of one game: two games' sides are not the same sides.
    return matches.filter(confirmed_version__isnull=False, confirmed_version__game=game).order_by()


def site_stats(*, game: str) -> SideStats:
    """Every confirmed battle of ``game`` in every tournament but the copies (one query)."""
    rows = _confirmed_matches(Match.objects.sitewide(), game).values_list(*SURVIVOR_COLUMNS)
    return side_stats((MatchResult(*row, game=game) for row in rows), game=game)


def tournament_stats(tournament: Tournament) -> SideStats:
    """Every confirmed battle of ``tournament``, in its game (one query); a copy's too."""
    game = tournament.game
    rows = (
        _confirmed_matches(Match.objects.counted(), game)
        .filter(round__tournament=tournament)
        .values_list(*SURVIVOR_COLUMNS)
    )
    return side_stats((MatchResult(*row, game=game) for row in rows), game=game)


def player_stats(player: Player, *, game: str) -> SideStats:
    """``player``'s confirmed battles of ``game`` in every tournament but the copies, from
    their point of view."""
    rows = (
        _confirmed_matches(Match.objects.sitewide(), game)
        .filter(Q(player_a__player=player) | Q(player_b__player=player))
        .values_list("player_a__player_id", *SURVIVOR_COLUMNS)
    )
    return player_side_stats(
        (
            (MatchResult(*numbers, game=game), "a" if a == player.pk else "b")
            for a, *numbers in rows
        ),
        game=game,
    )


def side_chart(stats: SideStats, *, title: str, figure_id: str = "side-chart") -> Figure:
    """The bar chart of who won the battles, and its table (labels translated here)."""
    words = stats.words
    if stats.lost is None:
        first, second = words["first_won"], words["second_won"]
    else:
        first, second = words["won_as_first"], words["won_as_second"]
    outcomes = [(first, stats.first_won_pct, stats.first_won)]
    outcomes.append((second, stats.second_won_pct, stats.second_won))
    if stats.lost is not None:
        outcomes.append((_("Lost"), percentage(stats.lost, stats.battles), stats.lost))
    outcomes.append((_("Drawn"), stats.drawn_pct, stats.drawn))
    shares = [f"{number_format(pct, 2)} %" for _label, pct, _count in outcomes]
    bars = [
        charts.Bar(label, float(pct), f"{share} ({count})")
        for (label, pct, count), share in zip(outcomes, shares, strict=True)
    ]
    svg = charts.bar_chart(bars, title=title, labelled_by=caption_id(figure_id))
    return Figure(
        figure_id,
        title,
        mark_safe(svg),  # noqa: S308 - charts.bar_chart escapes every label
        columns=[_("Outcome"), _("Share of battles"), _("Battles")],
        rows=[
            (label, [share, str(count)])
            for (label, _pct, count), share in zip(outcomes, shares, strict=True)
        ],
    )


@dataclass(frozen=True)
class EventData:
    """A tournament's public results as plain values (three queries)."""

    entrants: list[EntrantRecord]
    matches: list[CrossMatch]
    rounds: list[int]  # numbers of the public rounds

    @property
    def finished(self) -> list[MatchRecord]:
        """Byes and confirmed matches, as the standings read them."""
        return [
            MatchRecord(m.round, m.a, m.b, m.result)
            for m in self.matches
            if m.b is None or m.result is not None
        ]


def event_data(tournament: Tournament) -> EventData:
    entrants = [
        EntrantRecord(pk, name, seed, initial)
        for pk, name, seed, initial in Entry.objects.filter(tournament=tournament)
        .order_by("seed", "player__name")
        .values_list("pk", "player__name", "seed", "initial_points")
    ]
    rows = (
        Match.objects.counted()
        .filter(round__tournament=tournament)
        .order_by("round__number", "table")
        .values_list("round__number", "player_a_id", "player_b_id", *SURVIVOR_COLUMNS)
    )
    matches = [
        CrossMatch(
            n, a, b, None if b is None or s[0] is None else MatchResult(*s, game=tournament.game)
        )
        for n, a, b, *s in rows
    ]
    rounds = list(
        tournament.round_set.counted().order_by("number").values_list("number", flat=True)
    )
    return EventData(entrants, matches, rounds)


def event_standings(tournament: Tournament, data: EventData) -> list[StandingRow]:
    return compute_standings(
        data.entrants,
        data.finished,
        points=points_scheme(tournament),
        order=tournament.tiebreak_order,
    )


def event_crosstable(data: EventData, standings: list[StandingRow]) -> list[CrossRow]:
    return crosstable(standings, data.matches, max(data.rounds, default=0))


def rank_chart(tournament: Tournament, data: EventData, standings: list[StandingRow]) -> Figure:
    """Rank after each public round for the leading players (standings order), and its table."""
    count = max(data.rounds, default=0)
    history = ranks_by_round(
        data.entrants,
        data.finished,
        count,
        points=points_scheme(tournament),
        order=tournament.tiebreak_order,
    )
    lines = [charts.Line(row.name, history[row.entry_id]) for row in standings[:RANK_CHART_LINES]]
    labels = [_("R%(number)s") % {"number": n} for n in range(1, count + 1)]
    title = _("Rank after each round")
    figure_id = "rank-chart"
    svg = charts.rank_chart(
        lines, round_labels=labels, title=title, labelled_by=caption_id(figure_id)
    )
    return Figure(
        figure_id,
        title,
        mark_safe(svg),  # noqa: S308 - charts.rank_chart escapes every label
        columns=[_("Name"), *labels],
        rows=[(line.label, [str(r) for r in line.ranks]) for line in lines],
    )


def stage(tournament: Tournament, data: EventData) -> Stage:
    """How far ``tournament`` has got (``stage.report_stage`` decides; no query)."""
    complete = dict.fromkeys(data.rounds, True)
    for m in data.matches:
        if m.b is not None and m.result is None:
            complete[m.round] = False
    return report_stage(
        closed=tournament.status == Tournament.Status.FINISHED,
        knockout=tournament.has_knockout,
        planned=tournament.rounds,
        rounds=complete,
    )


def report_context(tournament: Tournament) -> dict:
    """Everything ``report_body.html`` renders: standalone, so a PDF can reuse it."""
    data = event_data(tournament)
    standings = event_standings(tournament, data)
    stats = side_stats(
        (m.result for m in data.matches if m.result is not None), game=tournament.game
    )
    return {
        "tournament": tournament,
        "stage": stage(tournament, data),
        # The podium when the stage is final, the leaders so far before (report_body.html).
        "leaders": [row for row in standings if row.rank <= PODIUM and row.played][:PODIUM],
        "standings": standings,
        "crosstable": event_crosstable(data, standings),
        "round_numbers": list(range(1, max(data.rounds, default=0) + 1)),
        "stats": stats,
        "side_chart": side_chart(stats, title=_("Battles won by side")),
        "rank_chart": rank_chart(tournament, data, standings),
        "rank_chart_lines": min(len(standings), RANK_CHART_LINES),
    }
