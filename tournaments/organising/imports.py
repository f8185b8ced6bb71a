"""CSV imports of players and results (README "CSV formats"), and entering one player.

Invariants:
- A file is read into checked rows completely before anything is written
  (``organising.csv_rows``: bounded, strict, validated); any problem raises
  ``CsvImportError`` naming the line (1 = the header) and nothing changes.
- The writes of one import happen in one short ``transaction.atomic()``: players and
  entries with ``bulk_create``; results through ``record_final_results`` (bulk).
- A Player is reused only when the tournament's own organiser has entered that very
  Player before (same name and club, exactly one such Player); otherwise a new Player
  is created. Reusing a namesake from another organiser's tournament would let that
  organiser decide claims on, and so hand out, a player they never entered.
- Result rows state the four numbers of the tournament's game, in the columns its scale
  names (``scales.columns``); battle 1 has player A on the first side. Each row
  becomes a confirmed ``ResultVersion`` with source ``import`` via
  ``record_final_results``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.models.countries import country_code
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import (
    bump_state_version,
    bump_tournaments_of_players_on_commit,
)
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.csv_rows import CsvImportError, PlayerRow, ResultRow, line_error
from tournaments.results.final import record_final_results
from tournaments.results.writing import ResultError
from tournaments.rules.result import MatchResult


def _own_players(tournament: Tournament, names: set[str]) -> dict[tuple[str, str], Player]:
    """Players with these names that the tournament's organiser has entered before.

    Keyed by (name, club); a key matching several Players is left out (ambiguous).
    """
    if tournament.owner_id is None or not names:
        return {}
    found: dict[tuple[str, str], Player] = {}
    ambiguous: set[tuple[str, str]] = set()
    candidates = Player.objects.filter(
        name__in=names, entries__tournament__owner_id=tournament.owner_id
    ).distinct()
    for player in candidates:
        key = (player.name, player.club)
        if key in found and found[key].pk != player.pk:
            ambiguous.add(key)
        found[key] = player
    return {key: player for key, player in found.items() if key not in ambiguous}


def next_seed(tournament: Tournament) -> int:
    # The tournament row lock serialises seed allocation between concurrent entries.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    return (Entry.objects.filter(tournament=tournament).aggregate(m=Max("seed"))["m"] or 0) + 1


def import_players(tournament: Tournament, rows: list[PlayerRow]) -> list[Entry]:
    """Enter each row's player with the next seeds, in file order (bulk writes)."""
    entered = {
        name.casefold()
        for name in Entry.objects.filter(tournament=tournament).values_list(
            "player__name", flat=True
        )
    }
    for row in rows:
        if row.name.casefold() in entered:
            raise line_error(
                row.line, _("%(name)s is already entered in this tournament") % {"name": row.name}
            )
    own = _own_players(tournament, {row.name for row in rows})
    players = [
        own.get((row.name, row.club))
        or Player(name=row.name, club=row.club, country=row.country, rating=row.rating)
        for row in rows
    ]
    # A rating in the file for a Player entered before replaces the stored one, as the
    # add-player form does (``enter_player``); an empty cell keeps it.
    rerated = []
    for player, row in zip(players, rows, strict=True):
        if player.pk is not None and row.rating is not None and player.rating != row.rating:
            player.rating = row.rating
            rerated.append(player)
    with transaction.atomic():
        bump_state_version(tournament.pk)  # the tournament row first, as every writer
        Player.objects.bulk_create([p for p in players if p.pk is None], batch_size=1000)
        Player.objects.bulk_update(rerated, ["rating"], batch_size=1000)
        bump_tournaments_of_players_on_commit((p.pk for p in rerated), besides=tournament.pk)
        seed = next_seed(tournament)
        entries = [
            Entry(tournament=tournament, player=player, seed=seed + i)
            for i, player in enumerate(players)
        ]
        return Entry.objects.bulk_create(entries, batch_size=1000)


def import_results(tournament: Tournament, rows: list[ResultRow], *, now: datetime) -> int:
    """Record every row as a final result; returns the number recorded.

    The matches are read in one query and the results written by
    ``record_final_results`` with a constant number of queries, in one short transaction.
    """
    wanted = {row.round for row in rows}
    # Plain values, not model instances: at 5,000 rows building instances costs more
    # than the query.
    matches = {
        (number, table): (pk, status, player_b_id)
        for pk, number, table, status, player_b_id in Match.objects.filter(
            round__tournament=tournament, round__number__in=wanted
        ).values_list("pk", "round__number", "table", "round__status", "player_b_id")
    }
    todo = []
    for row in rows:
        pk, status, player_b_id = matches.get((row.round, row.table), (None, None, None))
        if pk is None or status == Round.Status.DRAFT:
            raise line_error(
                row.line,
                _("there is no table %(table)d in published round %(round)d")
                % {"table": row.table, "round": row.round},
            )
        if player_b_id is None:
            raise line_error(row.line, _("table %(table)d is a bye") % {"table": row.table})
        todo.append((pk, MatchResult.parse(row.survivors, game=tournament.game)))
    try:
        record_final_results(todo, source=ResultVersion.Source.IMPORT, now=now)
    except ResultError as exc:
        raise CsvImportError(str(exc)) from None
    return len(todo)


@dataclass(frozen=True)
class Entered:
    """A player entered by hand. ``rating_replaced``: a Player entered before took the
    rating typed now; ``rating_before`` is the one it held."""

    entry: Entry
    rating_replaced: bool = False
    rating_before: int | None = None


def enter_player(
    tournament: Tournament,
    *,
    name: str,
    club: str = "",
    country: str = "",
    rating: int | None = None,
    late_from_round: int | None = None,
    initial_points: int = 0,
) -> Entered:
    """Enter one player (the organiser's form), with the next seed.

    Reuses a Player only as ``import_players`` does: one its organiser entered before. A
    rating typed for it is the organiser's latest word and replaces the stored one, as an
    edit of the entry would (``organising.entries``); an empty rating keeps it.
    """
    country = country_code(country)  # a code or a name; UnknownCountryError for neither
    player = _own_players(tournament, {name}).get((name, club))
    replaced, before = False, None
    with transaction.atomic():
        bump_state_version(tournament.pk)  # the tournament row first, as every writer
        if player is None:
            player = Player.objects.create(name=name, club=club, country=country, rating=rating)
        elif rating is not None and rating != player.rating:
            replaced, before, player.rating = True, player.rating, rating
            player.save(update_fields=["rating"])
            bump_tournaments_of_players_on_commit([player.pk], besides=tournament.pk)
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=next_seed(tournament),
            late_from_round=late_from_round,
            initial_points=initial_points,
        )
    return Entered(entry, replaced, before)


def namesake_elsewhere(entry: Entry) -> bool:
    """Whether ``entry`` got a new Player although another organiser has entered a
    Player with the same name and club (the form says so: suggest, never merge)."""
    if entry.player.entries.exclude(pk=entry.pk).exists():
        return False  # an own Player, reused
    return (
        Player.objects.filter(name__iexact=entry.player.name, club__iexact=entry.player.club)
        .exclude(pk=entry.player_id)
        .exclude(entries__tournament__owner_id=entry.tournament.owner_id)
        .filter(entries__isnull=False)
        .exists()
    )
