"""The adapter between the database and the pure statistics, crosstable and chart functions.

Terminology and invariants:
- Only public rounds (published or finished) are read, as on every public page; a result
  counts once its match points at a confirmed version (``Match.confirmed_version``),
  whatever its source (online, over the board, imported). Byes are no battle.
- Each loader reads plain values in a constant number of queries, whatever the number of
  players, matches or tournaments: the side statistics one query, a tournament's event data
  (entries, matches, rounds) three.
- ``report_context`` is everything ``templates/tournaments/report_body.html`` needs, so the
  report's body can be rendered on its own (a PDF reuses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Entry, Match, Player, Tournament
from tournaments.reports import charts
from tournaments.reports.crosstable import CrossMatch, CrossRow, crosstable, ranks_by_round
from tournaments.reports.stats import SideStats, percentage, player_side_stats, side_stats
from tournaments.results.value import FIELDS, THUD, Survivors
from tournaments.rounds import lifecycle
from tournaments.rounds.adapter import points_scheme
from tournaments.standings.table import EntrantRecord, MatchRecord, StandingRow, compute_standings

SURVIVOR_COLUMNS = tuple(f"confirmed_version__{name}" for name in FIELDS)
# The rank chart stays readable with this many lines; the rest are in the crosstable.
RANK_CHART_LINES = 16
FIRST_COLOUR, SECOND_COLOUR, LOST_COLOUR, DRAWN_COLOUR = "#8a5a00", "#2f6f3e", "#b3261e", "#777777"


def _confirmed_matches(game: str = THUD):
    # Side statistics are of one game: two games' sides are not the same sides.
    # The site's and a player's are of the default game; a tournament's are of its game.
    return Match.objects.filter(
        round__status__in=lifecycle.PUBLIC,
        confirmed_version__isnull=False,
        confirmed_version__game=game,
    ).order_by()


def site_stats() -> SideStats:
    """Every confirmed battle of every tournament (one query)."""
    rows = _confirmed_matches().values_list(*SURVIVOR_COLUMNS)
    return side_stats(Survivors(*row) for row in rows)


def tournament_stats(tournament: Tournament) -> SideStats:
    """Every confirmed battle of ``tournament``, in its game (one query)."""
    game = tournament.game
    rows = (
        _confirmed_matches(game).filter(round__tournament=tournament).values_list(*SURVIVOR_COLUMNS)
    )
    return side_stats((Survivors(*row, game=game) for row in rows), game=game)


def player_stats(player: Player) -> SideStats:
    """``player``'s confirmed battles in every tournament, from their point of view."""
    rows = (
        _confirmed_matches()
        .filter(Q(player_a__player=player) | Q(player_b__player=player))
        .values_list("player_a__player_id", *SURVIVOR_COLUMNS)
    )
    return player_side_stats(
        (Survivors(*survivors), "a" if a == player.pk else "b") for a, *survivors in rows
    )


def side_chart(stats: SideStats, *, title: str) -> SafeString:
    """The bar chart of who won the battles (labels translated here)."""

    def bar(label: str, pct: Decimal, count: int, colour: str) -> charts.Bar:
        return charts.Bar(label, float(pct), f"{number_format(pct, 2)} % ({count})", colour)

    words = stats.words
    if stats.lost is None:
        first, second = words["first_won"], words["second_won"]
    else:
        first, second = words["won_as_first"], words["won_as_second"]
    bars = [
        bar(first, stats.first_won_pct, stats.first_won, FIRST_COLOUR),
        bar(second, stats.second_won_pct, stats.second_won, SECOND_COLOUR),
    ]
    if stats.lost is not None:
        bars.append(bar(_("Lost"), percentage(stats.lost, stats.battles), stats.lost, LOST_COLOUR))
    bars.append(bar(_("Drawn"), stats.drawn_pct, stats.drawn, DRAWN_COLOUR))
    # charts.bar_chart escapes every label.
    return mark_safe(charts.bar_chart(bars, title=title))  # noqa: S308


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
            MatchRecord(m.round, m.a, None)
            if m.b is None
            else MatchRecord(m.round, m.a, m.b, *m.survivors, game=m.survivors.game)
            for m in self.matches
            if m.b is None or m.survivors is not None
        ]


def event_data(tournament: Tournament) -> EventData:
    entrants = [
        EntrantRecord(pk, name, seed, initial)
        for pk, name, seed, initial in Entry.objects.filter(tournament=tournament)
        .order_by("seed", "player__name")
        .values_list("pk", "player__name", "seed", "initial_points")
    ]
    rows = (
        Match.objects.filter(round__tournament=tournament, round__status__in=lifecycle.PUBLIC)
        .order_by("round__number", "table")
        .values_list("round__number", "player_a_id", "player_b_id", *SURVIVOR_COLUMNS)
    )
    matches = [
        CrossMatch(
            n, a, b, None if b is None or s[0] is None else Survivors(*s, game=tournament.game)
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


def rank_chart(tournament: Tournament, data: EventData, standings: list[StandingRow]) -> SafeString:
    """Rank after each public round for the leading players (standings order)."""
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
    svg = charts.rank_chart(
        lines, players=len(data.entrants), round_labels=labels, title=_("Rank after each round")
    )
    return mark_safe(svg)  # noqa: S308 - charts.rank_chart escapes every label


def report_context(tournament: Tournament) -> dict:
    """Everything ``report_body.html`` renders: standalone, so a PDF can reuse it."""
    data = event_data(tournament)
    standings = event_standings(tournament, data)
    stats = side_stats(
        (m.survivors for m in data.matches if m.survivors is not None), game=tournament.game
    )
    return {
        "tournament": tournament,
        "podium": [row for row in standings if row.rank <= 3 and row.played][:3],
        "standings": standings,
        "crosstable": event_crosstable(data, standings),
        "round_numbers": list(range(1, max(data.rounds, default=0) + 1)),
        "stats": stats,
        "side_chart": side_chart(stats, title=_("Battles won by side")),
        "rank_chart": rank_chart(tournament, data, standings),
        "rank_chart_lines": min(len(standings), RANK_CHART_LINES),
    }
