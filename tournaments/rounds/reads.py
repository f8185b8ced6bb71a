"""Reading rounds for the pages: the standings, their cache fingerprint, a published
round's matches and an entry's matches.

Only published and finished rounds (``Round.objects.counted()``) count in standings and
appear on public pages. Loading standings runs a constant number of queries whatever the
field size: the entries and the counted matches (with their confirmed versions), each in
one query. The standings count the main stage (a single-elimination tournament counts its
knockout matches, never its playoffs).
"""

from __future__ import annotations

import hashlib

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import PointsScheme, score
from tournaments.standings.table import EntrantRecord, MatchRecord, StandingRow, compute_standings

# The stable export columns (API, export_standings); README "CSV formats".
STANDINGS_FIELDS = (
    "rank",
    "name",
    "played",
    "match_points",
    "differential",
    "buchholz",
    "sonneborn_berger",
    "battles_won",
)


def standings_stages(tournament: Tournament) -> tuple[str, ...]:
    """The round stages the standings count."""
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION:
        return (Round.Stage.MAIN, Round.Stage.KNOCKOUT)
    return (Round.Stage.MAIN,)


#: Which of the counted rounds' matches count in the standings: a bye, or a match with a
#: confirmed result. THE definition (``load_standings`` reads it in SQL); ``_match_records``
#: is its reading in Python, for the draw, which holds every counted match (its history
#: needs the unconfirmed ones too). ``tests/tournaments/rounds/test_standings_parity.py``
#: keeps the two readings equal.
IN_STANDINGS = Q(player_b__isnull=True) | Q(confirmed_version__isnull=False)


def _counted(tournament: Tournament):
    """The matches of the tournament's counted rounds of the stages the standings count."""
    return (
        Match.objects.counted()
        .filter(round__tournament=tournament)
        .filter(round__stage__in=standings_stages(tournament))
        .order_by("round__number", "table")
    )


def counted_matches(tournament: Tournament):
    """Every match of the rounds the standings count, confirmed or not (the draw's)."""
    return _counted(tournament).select_related("round", "confirmed_version")


def _match_records(matches) -> list[MatchRecord]:
    """The standings' records of ``matches`` (of ``counted_matches``): those ``IN_STANDINGS``."""
    records = []
    for m in matches:
        if m.player_b_id is None:
            records.append(MatchRecord(m.round.number, m.player_a_id, None))
        elif m.confirmed_version is not None:
            v = m.confirmed_version
            records.append(MatchRecord(m.round.number, m.player_a_id, m.player_b_id, v.survivors))
    return records


def points_scheme(tournament: Tournament) -> PointsScheme:
    return PointsScheme(
        win=tournament.points_win, draw=tournament.points_draw, loss=tournament.points_loss
    )


def standings_from(tournament: Tournament, entries, matches) -> list[StandingRow]:
    entrants = [EntrantRecord(e.pk, e.player.name, e.seed, e.initial_points) for e in entries]
    return compute_standings(
        entrants,
        _match_records(matches),
        points=points_scheme(tournament),
        order=tournament.tiebreak_order,
    )


def load_standings(tournament: Tournament) -> list[StandingRow]:
    """Current standings: two queries whatever the number of players.

    Reads plain values rather than model instances: this runs on every uncached
    standings request, and building 800 objects for 200 players cost most of it.
    """
    entrants = [
        EntrantRecord(pk, name, seed, initial)
        for pk, name, seed, initial in Entry.objects.filter(tournament=tournament)
        .order_by("seed", "player__name")
        .values_list("pk", "player__name", "seed", "initial_points")
    ]
    rows = (
        _counted(tournament)
        .filter(IN_STANDINGS)
        .values_list(
            "round__number",
            "player_a_id",
            "player_b_id",
            "confirmed_version__battle1_first",
            "confirmed_version__battle1_second",
            "confirmed_version__battle2_first",
            "confirmed_version__battle2_second",
        )
    )
    records = [
        MatchRecord(number, a, None)
        if b is None
        else MatchRecord(number, a, b, MatchResult(*numbers, game=tournament.game))
        for number, a, b, *numbers in rows
    ]
    return compute_standings(
        entrants, records, points=points_scheme(tournament), order=tournament.tiebreak_order
    )


def _fingerprint_sql() -> str:
    """One statement for the three aggregates of ``standings_fingerprint``.

    Plain SQL that PostgreSQL and SQLite both run: the ORM took three queries and more
    time building them than the database took answering (profiled on the standings page).
    A round's (number, status) pairs become, for each status, the count and the sum of
    the cubes of the numbers in it.
    """
    per_status = ", ".join(
        f"COALESCE(SUM(CASE WHEN status = '{code}' THEN 1 ELSE 0 END), 0), "
        f"COALESCE(SUM(CASE WHEN status = '{code}' THEN number * number * number ELSE 0 END), 0)"
        for code in Round.Status.values
    )
    m, r, e = Match._meta.db_table, Round._meta.db_table, Entry._meta.db_table
    return (
        f"SELECT * FROM "
        f"(SELECT COUNT(m.id), COALESCE(SUM(m.lock_version), 0), MAX(m.id) FROM {m} m "
        f"INNER JOIN {r} r ON m.round_id = r.id WHERE r.tournament_id = %s) AS matches, "
        f"(SELECT COUNT(*), {per_status} FROM {r} WHERE tournament_id = %s) AS rounds, "
        f"(SELECT COUNT(id), MAX(id), COALESCE(SUM(seed), 0), "
        f"COALESCE(SUM(withdrawn_from_round), 0), COALESCE(SUM(late_from_round), 0), "
        f"COALESCE(SUM(initial_points), 0) FROM {e} WHERE tournament_id = %s) AS entries"
    )


def standings_fingerprint(tournament: Tournament) -> str:
    """A cheap key that changes whenever the standings' inputs change (one small query).

    Every result write bumps ``Match.lock_version``; rounds change by status; entries by
    count, seed, withdrawal, late entry and starting points. The tournament's creation
    time keeps keys distinct across databases that reuse primary keys. Not covered:
    a player renamed after the fact (callers cache with a short expiry for that).
    """
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(), [tournament.pk] * 3)
        aggregates = cursor.fetchone()
    settings = (
        tournament.created_at.timestamp(),
        tuple(tournament.tiebreak_order),
        tournament.points_win,
        tournament.points_draw,
        tournament.points_loss,
    )
    parts = (settings, tuple(str(value) for value in aggregates))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def standings_json(rows: list[StandingRow]) -> list[dict]:
    return [{field: getattr(row, field) for field in STANDINGS_FIELDS} for row in rows]


class NoSuchRound(LookupError):
    """No published or finished round of that number; the message says so (views answer 404)."""


def public_matches(tournament: Tournament, number: int) -> tuple[Round, list[Match]]:
    """A published round and its matches; ``NoSuchRound`` for a draft or missing round."""
    try:
        round_ = tournament.round_set.counted().get(number=number)
    except Round.DoesNotExist as exc:
        raise NoSuchRound(_("No such published round")) from exc
    matches = list(
        round_.matches.select_related(
            "player_a__player", "player_b__player", "confirmed_version"
        ).order_by("table")
    )
    return round_, matches


def entry_matches(entry: Entry) -> list[Match]:
    """An entry's matches in counted rounds, oldest first."""
    return list(
        Match.objects.counted()
        .filter(Q(player_a=entry) | Q(player_b=entry))
        .select_related("round", "player_a__player", "player_b__player", "confirmed_version")
        .order_by("round__number")
    )


def match_score(match: Match):
    """The MatchScore of a confirmed match, else None."""
    if match.confirmed_version is None:
        return None
    return score(match.confirmed_version.survivors)
