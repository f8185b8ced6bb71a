"""CSV imports of players and results (README "CSV formats"), and entering one player.

Invariants:
- A file is bounded before it is parsed: at most ``MAX_FILE_BYTES`` and ``MAX_ROWS``
  data rows. Parsing streams row by row and stops at the first problem.
- Parsing is strict (RFC 4180): a quote that is never closed, or text after a closing
  quote, is an error, and every row has exactly as many cells as the header.
- A file is parsed and validated completely before anything is written: lengths against
  the model's ``max_length``, no control characters, whole numbers in their ranges, a
  country as an ISO code or a name in English, Italian or Norwegian (stored as the code). Any
  problem raises ``CsvImportError`` naming the line (1 = the header) and nothing changes.
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

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.models.countries import (
    COUNTRY_TEXT_MAX_LENGTH,
    UnknownCountryError,
    country_code,
)
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.results.final import record_final_results
from tournaments.results.writing import ResultError
from tournaments.rules.result import MatchResult
from tournaments.rules.scales import FIELDS, columns, limit_of, scale_of

PLAYER_COLUMNS = ("name", "club", "country", "rating")


def result_columns(game: str) -> tuple[str, ...]:
    """The results file's columns for ``game``: round, table and the four numbers."""
    return ("round", "table", *columns(scale_of(game)))


# Bounds of one file (players and results alike). 5,000 rows write in well under two
# seconds (bench/imports.py); a 100,000-line file once held a transaction for minutes.
MAX_FILE_BYTES = 2_000_000
MAX_ROWS = 5_000

# A sensible Elo range, well inside the IntegerField.
RATING_MIN, RATING_MAX = 0, 4000
INITIAL_POINTS_MAX = 1000
TEXT_MAX_LENGTH: dict[str, int] = {
    name: Player._meta.get_field(name).max_length  # type: ignore[union-attr,misc]  # CharFields
    for name in ("name", "club")
}
# A country is typed as a name or a code and stored as its code.
TEXT_MAX_LENGTH["country"] = COUNTRY_TEXT_MAX_LENGTH

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


class CsvImportError(ValueError):
    """A file that cannot be imported; the message names the line and the problem."""


@dataclass(frozen=True)
class PlayerRow:
    line: int
    name: str
    club: str
    country: str  # an ISO code or ""
    rating: int | None


@dataclass(frozen=True)
class ResultRow:
    line: int
    round: int
    table: int
    survivors: tuple[int, int, int, int]


def limits_text() -> str:
    return _("at most %(bytes)s bytes (2 MB) and %(rows)s rows") % {
        "bytes": f"{MAX_FILE_BYTES:,}",
        "rows": f"{MAX_ROWS:,}",
    }


def read_bounded(stream: BinaryIO) -> str:
    """The text of an uploaded or opened file, refusing it unread beyond the size cap."""
    raw = stream.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise CsvImportError(_("The file is too large: %(limits)s.") % {"limits": limits_text()})
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CsvImportError(_("The file is not UTF-8 text.")) from None


def control_character(text: str) -> str | None:
    """The first control character (NUL, tab, line break, …) in ``text``, or None.

    >>> control_character("Vimes"), control_character("Vi\\x00mes")
    (None, '\\x00')
    """
    return next((c for c in text if unicodedata.category(c) == "Cc"), None)


def text_problem(field: str, value: str) -> str | None:
    """Why ``value`` cannot be stored in Player.``field``, or None (forms use it too)."""
    limit = TEXT_MAX_LENGTH[field]
    if len(value) > limit:
        return _("%(field)s is longer than %(limit)d characters") % {"field": field, "limit": limit}
    bad = control_character(value)
    if bad is not None:
        return _("%(field)s contains a control character (U+%(code)04X)") % {
            "field": field,
            "code": ord(bad),
        }
    return None


def _line_error(line: int, message: str) -> CsvImportError:
    return CsvImportError(_("Line %(line)d: %(problem)s") % {"line": line, "problem": message})


def _rows(text: str, columns: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line where the row starts, cells by column) for each data row, strictly parsed."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise CsvImportError(_("The file is too large: %(limits)s.") % {"limits": limits_text()})
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True)
    header: list[str] | None = None
    count = 0
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if "end of data" in str(exc):
                problem = _("a quote opened here is never closed (it runs to the end of the file)")
                raise _line_error(start, problem) from None
            raise _line_error(start, _("malformed CSV: %(error)s") % {"error": exc}) from None
        if not cells:
            continue  # a blank line
        if header is None:
            header = [h.strip().lower() for h in cells]
            missing = [c for c in columns if c not in header]
            if missing:
                problem = _("missing column(s): %(columns)s") % {"columns": ", ".join(missing)}
                raise _line_error(start, problem)
            continue
        if len(cells) != len(header):
            raise _line_error(
                start,
                _("%(found)d cells where the header has %(expected)d")
                % {"found": len(cells), "expected": len(header)},
            )
        count += 1
        if count > MAX_ROWS:
            raise _line_error(
                start, _("too many rows; a file holds %(limits)s") % {"limits": limits_text()}
            )
        yield start, {h: cell.strip() for h, cell in zip(header, cells, strict=True)}
    if header is None:
        raise _line_error(1, _("missing column(s): %(columns)s") % {"columns": ", ".join(columns)})


def _int(line: int, column: str, raw: str, low: int, high: int) -> int:
    if not _WHOLE_NUMBER.fullmatch(raw):
        raise _line_error(
            line,
            _("%(column)s must be a whole number, not %(value)r")
            % {"column": column, "value": raw[:20]},
        )
    # Too many digits is out of range whatever they say (and int() refuses 4,300+).
    if len(raw.lstrip("+-0")) > 9 or not low <= int(raw) <= high:
        raise _line_error(
            line,
            _("%(column)s must be between %(low)d and %(high)d, not %(value)s")
            % {"column": column, "low": low, "high": high, "value": raw[:20]},
        )
    return int(raw)


def parse_players(text: str) -> list[PlayerRow]:
    rows: list[PlayerRow] = []
    seen: set[str] = set()
    for line, row in _rows(text, PLAYER_COLUMNS):
        for field in TEXT_MAX_LENGTH:
            problem = text_problem(field, row[field])
            if problem:
                raise _line_error(line, problem)
        name = row["name"]
        if not name:
            raise _line_error(line, _("the name is empty"))
        if name.casefold() in seen:
            raise _line_error(line, _("%(name)s appears twice in the file") % {"name": name})
        seen.add(name.casefold())
        raw = row["rating"]
        rating = _int(line, "rating", raw, RATING_MIN, RATING_MAX) if raw else None
        try:
            country = country_code(row["country"])
        except UnknownCountryError as exc:
            raise _line_error(line, str(exc)) from None
        rows.append(PlayerRow(line, name, row["club"], country, rating))
    return rows


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


def _next_seed(tournament: Tournament) -> int:
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
            raise _line_error(
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
        Player.objects.bulk_create([p for p in players if p.pk is None], batch_size=1000)
        Player.objects.bulk_update(rerated, ["rating"], batch_size=1000)
        seed = _next_seed(tournament)
        entries = [
            Entry(tournament=tournament, player=player, seed=seed + i)
            for i, player in enumerate(players)
        ]
        return Entry.objects.bulk_create(entries, batch_size=1000)


def parse_results(text: str, *, game: str) -> list[ResultRow]:
    """The rows of a results CSV; the four numbers checked against ``game``'s limits."""
    rows: list[ResultRow] = []
    seen: dict[tuple[int, int], int] = {}
    scale = scale_of(game)
    for line, row in _rows(text, result_columns(game)):
        number = _int(line, "round", row["round"], 1, 10_000)
        table = _int(line, "table", row["table"], 1, 10_000)
        survivors = tuple(
            _int(line, column, row[column], 0, limit_of(scale, field))
            for field, column in zip(FIELDS, columns(scale), strict=True)
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
            raise _line_error(
                row.line,
                _("there is no table %(table)d in published round %(round)d")
                % {"table": row.table, "round": row.round},
            )
        if player_b_id is None:
            raise _line_error(row.line, _("table %(table)d is a bye") % {"table": row.table})
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
        if player is None:
            player = Player.objects.create(name=name, club=club, country=country, rating=rating)
        elif rating is not None and rating != player.rating:
            replaced, before, player.rating = True, player.rating, rating
            player.save(update_fields=["rating"])
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=_next_seed(tournament),
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
