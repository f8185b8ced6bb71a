"""Reading the CSV files of players and results (README "CSV formats") into checked rows;
nothing is written here (``organising.imports`` writes them).

Invariants:
- A file is bounded before it is parsed: at most ``MAX_FILE_BYTES`` and ``MAX_ROWS``
  data rows. Parsing streams row by row and stops at the first problem.
- Parsing is strict (RFC 4180): a quote that is never closed, or text after a closing
  quote, is an error, and every row has exactly as many cells as the header.
- A file is parsed and validated completely before anything is written: lengths against
  the model's ``max_length``, no control characters, whole numbers in their ranges, a
  country as an ISO code or a name in English, Italian or Norwegian (stored as the code). Any
  problem raises ``CsvImportError`` naming the line (1 = the header).
- Result rows state the four numbers of the tournament's game, in the columns its scale
  names (``scales.columns``); battle 1 has player A on the first side.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from django.utils.translation import gettext as _

from tournaments.models.countries import (
    COUNTRY_TEXT_MAX_LENGTH,
    UnknownCountryError,
    country_code,
)
from tournaments.models.people import Player
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


def line_error(line: int, message: str) -> CsvImportError:
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
                raise line_error(start, problem) from None
            raise line_error(start, _("malformed CSV: %(error)s") % {"error": exc}) from None
        if not cells:
            continue  # a blank line
        if header is None:
            header = [h.strip().lower() for h in cells]
            missing = [c for c in columns if c not in header]
            if missing:
                problem = _("missing column(s): %(columns)s") % {"columns": ", ".join(missing)}
                raise line_error(start, problem)
            continue
        if len(cells) != len(header):
            raise line_error(
                start,
                _("%(found)d cells where the header has %(expected)d")
                % {"found": len(cells), "expected": len(header)},
            )
        count += 1
        if count > MAX_ROWS:
            raise line_error(
                start, _("too many rows; a file holds %(limits)s") % {"limits": limits_text()}
            )
        yield start, {h: cell.strip() for h, cell in zip(header, cells, strict=True)}
    if header is None:
        raise line_error(1, _("missing column(s): %(columns)s") % {"columns": ", ".join(columns)})


def _int(line: int, column: str, raw: str, low: int, high: int) -> int:
    if not _WHOLE_NUMBER.fullmatch(raw):
        raise line_error(
            line,
            _("%(column)s must be a whole number, not %(value)r")
            % {"column": column, "value": raw[:20]},
        )
    # Too many digits is out of range whatever they say (and int() refuses 4,300+).
    if len(raw.lstrip("+-0")) > 9 or not low <= int(raw) <= high:
        raise line_error(
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
                raise line_error(line, problem)
        name = row["name"]
        if not name:
            raise line_error(line, _("the name is empty"))
        if name.casefold() in seen:
            raise line_error(line, _("%(name)s appears twice in the file") % {"name": name})
        seen.add(name.casefold())
        raw = row["rating"]
        rating = _int(line, "rating", raw, RATING_MIN, RATING_MAX) if raw else None
        try:
            country = country_code(row["country"])
        except UnknownCountryError as exc:
            raise line_error(line, str(exc)) from None
        rows.append(PlayerRow(line, name, row["club"], country, rating))
    return rows


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
            raise line_error(
                line,
                _("round %(round)d table %(table)d already appears on line %(other)d")
                % {"round": number, "table": table, "other": seen[number, table]},
            )
        seen[number, table] = line
        rows.append(ResultRow(line, number, table, survivors))  # type: ignore[arg-type]
    return rows
