"""CSV imports of players and results (README "CSV formats").

Invariants:
- A file is parsed and validated completely before anything is written; any problem
  raises ``CsvImportError`` naming the line (1 = the header) and nothing changes.
- The writes of one import happen in one ``transaction.atomic()``.
- Result rows state survivors; battle 1 has player A on the dwarfs. Each row becomes a
  confirmed ``ResultVersion`` with source ``import`` via ``record_final_result``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from .models import MAX_DWARFS, MAX_TROLLS, Entry, Match, Player, ResultVersion, Tournament
from .results import record_final_result

PLAYER_COLUMNS = ("name", "club", "country", "rating")
RESULT_COLUMNS = (
    "round",
    "table",
    "battle1_dwarfs",
    "battle1_trolls",
    "battle2_dwarfs",
    "battle2_trolls",
)


class CsvImportError(ValueError):
    """A file that cannot be imported; the message names the line and the problem."""


@dataclass(frozen=True)
class PlayerRow:
    line: int
    name: str
    club: str
    country: str
    rating: int | None


@dataclass(frozen=True)
class ResultRow:
    line: int
    round: int
    table: int
    survivors: tuple[int, int, int, int]


def _line_error(line: int, message: str) -> CsvImportError:
    return CsvImportError(_("Line %(line)d: %(problem)s") % {"line": line, "problem": message})


def _rows(text: str, columns: tuple[str, ...]):
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in columns if c not in header]
    if missing:
        raise _line_error(1, _("missing column(s): %(columns)s") % {"columns": ", ".join(missing)})
    reader.fieldnames = header
    for row in reader:
        # DictReader puts extra cells under None; blank lines are skipped by csv already.
        yield reader.line_num, {k: (v or "").strip() for k, v in row.items() if k is not None}


def _int(line: int, column: str, raw: str, low: int | None = None, high: int | None = None) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise _line_error(
            line,
            _("%(column)s must be a whole number, not %(value)r")
            % {"column": column, "value": raw},
        ) from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise _line_error(
            line,
            _("%(column)s must be between %(low)d and %(high)d, not %(value)d")
            % {"column": column, "low": low, "high": high, "value": value},
        )
    return value


def parse_players(text: str) -> list[PlayerRow]:
    rows: list[PlayerRow] = []
    seen: set[str] = set()
    for line, row in _rows(text, PLAYER_COLUMNS):
        name = row["name"]
        if not name:
            raise _line_error(line, _("the name is empty"))
        if name.casefold() in seen:
            raise _line_error(line, _("%(name)s appears twice in the file") % {"name": name})
        seen.add(name.casefold())
        rating = _int(line, "rating", row["rating"]) if row["rating"] else None
        rows.append(PlayerRow(line, name, row["club"], row["country"], rating))
    return rows


def import_players(tournament: Tournament, rows: list[PlayerRow]) -> list[Entry]:
    """Enter each row's player (reusing a Player with the same name and club)."""
    entered = {
        name.casefold()
        for name in Entry.objects.filter(tournament=tournament).values_list(
            "player__name", flat=True
        )
    }
    for row in rows:
        if row.name.casefold() in entered:
            raise _line_error(
                row.line, _("%(name)s is already entered in this tournament") % {"name": row.name}
            )
    with transaction.atomic():
        seed = Entry.objects.filter(tournament=tournament).aggregate(m=Max("seed"))["m"] or 0
        entries = []
        for row in rows:
            player, _created = Player.objects.get_or_create(
                name=row.name,
                club=row.club,
                defaults={"country": row.country, "rating": row.rating},
            )
            seed += 1
            entries.append(Entry.objects.create(tournament=tournament, player=player, seed=seed))
        return entries


def parse_results(text: str) -> list[ResultRow]:
    rows: list[ResultRow] = []
    seen: dict[tuple[int, int], int] = {}
    for line, row in _rows(text, RESULT_COLUMNS):
        number = _int(line, "round", row["round"], 1, 10_000)
        table = _int(line, "table", row["table"], 1, 10_000)
        survivors = tuple(
            _int(line, column, row[column], 0, MAX_DWARFS if "dwarfs" in column else MAX_TROLLS)
            for column in RESULT_COLUMNS[2:]
        )
        if (number, table) in seen:
            raise _line_error(
                line,
                _("round %(round)d table %(table)d already appears on line %(other)d")
                % {"round": number, "table": table, "other": seen[number, table]},
            )
        seen[number, table] = line
        rows.append(ResultRow(line, number, table, survivors))  # type: ignore[arg-type]
    return rows


def import_results(tournament: Tournament, rows: list[ResultRow]) -> int:
    """Record every row as a final result; returns the number recorded."""
    matches = {
        (m.round.number, m.table): m
        for m in Match.objects.filter(round__tournament=tournament).select_related("round")
    }
    todo = []
    for row in rows:
        match = matches.get((row.round, row.table))
        if match is None or match.round.status == match.round.Status.DRAFT:
            raise _line_error(
                row.line,
                _("there is no table %(table)d in published round %(round)d")
                % {"table": row.table, "round": row.round},
            )
        if match.is_bye:
            raise _line_error(row.line, _("table %(table)d is a bye") % {"table": row.table})
        todo.append((match, row))
    with transaction.atomic():
        for match, row in todo:
            record_final_result(
                match, survivors=row.survivors, by=None, source=ResultVersion.Source.IMPORT
            )
    return len(todo)


def enter_player(
    tournament: Tournament,
    *,
    name: str,
    club: str = "",
    country: str = "",
    rating: int | None = None,
    late_from_round: int | None = None,
    initial_points: int = 0,
) -> Entry:
    """Enter one player (the organiser's form), with the next seed."""
    with transaction.atomic():
        player, _created = Player.objects.get_or_create(
            name=name, club=club, defaults={"country": country, "rating": rating}
        )
        seed = Entry.objects.filter(tournament=tournament).aggregate(m=Max("seed"))["m"] or 0
        return Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=seed + 1,
            late_from_round=late_from_round,
            initial_points=initial_points,
        )
