"""Reading an archive file and checking it, before anything is written (pure: no queries).

Terminology and invariants:
- ``read_archive(data)`` returns the parsed document or raises ``ArchiveError`` whose
  message names the problem and where (``rounds[2].matches[4]: table 3 appears twice``).
- Order of the checks: the text (UTF-8, JSON), its bounds (``check_bounds``: nesting,
  list lengths, string lengths, no NUL, integers of at most 19 digits, finite numbers:
  what the database or the checks below could choke on), then ``format`` and ``version`` (so a
  newer archive is told as such, not as a hundred schema errors), then the structure
  against ``tournament-archive.schema.json`` (``jsonschema``; times must carry an
  offset; its enums are the models' choices, ``choices.load_schema``), then what a schema cannot say: references resolve, tables and entries unique
  per round, result numbers within the game's scale (``MatchResult``), one confirmed
  version per match, and each app's section (``sections``).
- The database is consulted only by the writer (the slug, the users).
"""

from __future__ import annotations

import json
import math
import zoneinfo
from collections.abc import Generator, Iterable, Iterator, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from tournaments.archive import sections
from tournaments.archive.choices import load_schema
from tournaments.archive.document import FORMAT, VERSION
from tournaments.archive.sections import DocumentIndex, MatchKey
from tournaments.models.wording import say
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.rules.scales import registered as registered_games
from tournaments.standings import tiebreaks

SCHEMA_PATH = Path(__file__).with_name("tournament-archive.schema.json")


class ArchiveError(ValueError):
    """The archive cannot be imported; the message says why and where."""


#: Bounds on any value of the file, whatever the schema says of its place (the schema
#: bounds most places tighter): nesting depth, items of a list or object, characters of a
#: string, digits of an integer (a 64-bit column holds 19).
MAX_DEPTH = 12
MAX_ITEMS = 50_000
MAX_CHARS = 10_000
MAX_DIGITS = 19


class TooLong(str):
    """An integer's text too long to be read as a number (``json.loads``' ``parse_int``):
    kept as text so ``check_bounds`` names its place."""


def read_int(text: str) -> int | TooLong:
    return TooLong(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def check_bounds(document: Any) -> None:
    """``ArchiveError`` naming the first value out of bounds (iterative: the depth is
    bounded before anything recurses)."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), document)]
    while stack:
        path, value = stack.pop()
        here = where(path)
        if len(path) > MAX_DEPTH:
            raise ArchiveError(
                _("%(where)s: nested more than %(depth)d levels deep.")
                % {"where": here, "depth": MAX_DEPTH}
            )
        if isinstance(value, TooLong):
            raise ArchiveError(
                _("%(where)s: a number of %(digits)d digits; at most %(most)d.")
                % {"where": here, "digits": len(value.lstrip("-")), "most": MAX_DIGITS}
            )
        if isinstance(value, str):
            check_text(value, here)
        elif isinstance(value, float) and not math.isfinite(value):
            raise ArchiveError(_("%(where)s: not a finite number.") % {"where": here})
        elif isinstance(value, (list, dict)):
            if len(value) > MAX_ITEMS:
                raise ArchiveError(
                    _("%(where)s: %(count)d items; at most %(most)d.")
                    % {"where": here, "count": len(value), "most": MAX_ITEMS}
                )
            if isinstance(value, dict):
                for key in value:
                    check_text(key, here)
                items = [((*path, key), v) for key, v in value.items()]
            else:
                items = [((*path, n), v) for n, v in enumerate(value)]
            stack.extend(reversed(items))


def check_text(text: str, here: str) -> None:
    if len(text) > MAX_CHARS:
        raise ArchiveError(
            _("%(where)s: a text of %(count)d characters; at most %(most)d.")
            % {"where": here, "count": len(text), "most": MAX_CHARS}
        )
    if "\x00" in text:
        raise ArchiveError(_("%(where)s: a text holds a NUL character.") % {"where": here})


def refuse_constant(name: str) -> None:
    raise ArchiveError(_("The file holds %(name)s, which is not a number.") % {"name": name})


FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def is_time(value: object) -> bool:
    """ISO 8601 with an offset: a time without one would be read in the server's zone."""
    return not isinstance(value, str) or datetime.fromisoformat(value).tzinfo is not None


@FORMATS.checks("date", raises=ValueError)
def is_date(value: object) -> bool:
    return not isinstance(value, str) or bool(date.fromisoformat(value))


@cache
def schema() -> dict[str, Any]:
    """The tournament's schema, its enums the models' choices (``choices``)."""
    return load_schema(SCHEMA_PATH)


@cache
def zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def where(path: Iterable[str | int]) -> str:
    """``["rounds", 2, "matches", 4]`` as ``rounds[2].matches[4]``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or _("the document")


def check_structure(value: Any, against: Mapping[str, Any], prefix: tuple = ()) -> None:
    validator = Draft202012Validator(against, format_checker=FORMATS)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error: ValidationError = errors[0]
        if error.validator in ("maxLength", "maxItems"):
            # Its message quotes the whole value: say what is too long, and by how much.
            message = _("%(count)d characters or items; at most %(most)d.") % {
                "count": len(error.instance),
                "most": error.validator_value,
            }
        else:
            # A message may quote the whole offending value: a line is enough to find it.
            message = error.message if len(error.message) <= 300 else error.message[:300] + "…"
        raise ArchiveError(f"{where([*prefix, *error.absolute_path])}: {message}")


def read_archive(data: bytes | str) -> dict[str, Any]:
    """The archive's document, checked; ``ArchiveError`` names the first problem."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ArchiveError(_("The file is not UTF-8 text.")) from None
    try:
        document = json.loads(text, parse_int=read_int, parse_constant=refuse_constant)
    except RecursionError:
        raise ArchiveError(
            _("The file is nested more than %(depth)d levels deep.") % {"depth": MAX_DEPTH}
        ) from None
    except json.JSONDecodeError as e:
        raise ArchiveError(
            _("The file is not valid JSON (line %(line)d, column %(column)d: %(problem)s).")
            % {"line": e.lineno, "column": e.colno, "problem": e.msg}
        ) from None
    check_bounds(document)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ArchiveError(
            _("The file is not a tournament archive (no format %(format)r).") % {"format": FORMAT}
        )
    if document.get("version") != VERSION:
        raise ArchiveError(
            _(
                "Archive version %(version)r is not known here (this installation reads version %(known)d)."
            )
            % {"version": document.get("version"), "known": VERSION}
        )
    check_structure(document, schema())
    problems = list(semantic_problems(document))
    if problems:
        raise ArchiveError(problems[0])
    return document


def semantic_problems(doc: dict[str, Any]) -> Iterator[str]:
    """What the schema cannot say, first problem first."""
    t = doc["tournament"]
    game = t["game"]
    if game not in registered_games():
        yield "tournament.game: " + _("this installation has no game %(game)r.") % {"game": game}
        return
    for n, key in enumerate(t["tiebreaks"]):
        if key not in tiebreaks.KEYS:
            yield f"tournament.tiebreaks[{n}]: " + _("unknown tiebreak %(key)r.") % {"key": key}
    if t["time_zone"] not in zones():
        yield "tournament.time_zone: " + _("unknown time zone %(zone)r.") % {"zone": t["time_zone"]}
    keys = yield from entry_problems(doc["entries"])
    pairs: set[frozenset[int]] = set()
    for n, pair in enumerate(doc["forbidden_pairs"]):
        here = f"forbidden_pairs[{n}]: "
        if unknown := [k for k in pair if k not in keys]:
            yield here + _("no entry has key %(key)d.") % {"key": unknown[0]}
        elif pair[0] == pair[1]:
            yield here + _("an entry cannot be forbidden to play itself.")
        elif frozenset(pair) in pairs:
            yield here + _("this pair appears twice.")
        pairs.add(frozenset(pair))
    matches = yield from round_problems(doc["rounds"], keys, game)
    index = DocumentIndex(game=game, entries=frozenset(keys), matches=matches)
    known = sections.registered()
    for name, value in doc["sections"].items():
        if name not in known:
            yield f"sections.{name}: " + _("this installation has no such section.")
            continue
        check_structure(value, known[name].schema, ("sections", name))
        yield from known[name].check(value, index)


def entry_problems(entries: list[dict[str, Any]]) -> Generator[str, None, set[int]]:
    """The entries' problems; returns their keys."""
    keys: set[int] = set()
    usernames: set[str] = set()
    for n, e in enumerate(entries):
        here = f"entries[{n}]: "
        if e["key"] in keys:
            yield here + _("key %(key)d appears twice.") % {"key": e["key"]}
        keys.add(e["key"])
        if (name := e["player"]["username"]) is not None:
            if name in usernames:
                yield here + _("user %(username)s plays twice.") % {"username": name}
            usernames.add(name)
        rounds = [a["round"] for a in e["absences"]]
        if len(rounds) != len(set(rounds)):
            yield here + _("a round appears twice among the absences.")
    return keys


def round_problems(
    rounds: list[dict[str, Any]], keys: set[int], game: str
) -> Generator[str, None, dict[MatchKey, tuple[int, int | None]]]:
    """The rounds' problems; returns each match's players by (round, table)."""
    matches: dict[MatchKey, tuple[int, int | None]] = {}
    numbers: set[int] = set()
    for r, round_ in enumerate(rounds):
        if round_["number"] in numbers:
            yield f"rounds[{r}]: " + _("round %(number)d appears twice.") % {
                "number": round_["number"]
            }
        numbers.add(round_["number"])
        seated: set[int] = set()
        for m, match in enumerate(round_["matches"]):
            here = f"rounds[{r}].matches[{m}]: "
            key = (round_["number"], match["table"])
            if key in matches:
                yield here + _("table %(table)d appears twice.") % {"table": match["table"]}
            players = [p for p in (match["a"], match["b"]) if p is not None]
            if unknown := [p for p in players if p not in keys]:
                yield here + _("no entry has key %(key)d.") % {"key": unknown[0]}
            for p in players:
                if p in seated:
                    yield here + _("entry %(key)d plays twice in this round.") % {"key": p}
                seated.add(p)
            matches[key] = (match["a"], match["b"])
            yield from (here + p for p in version_problems(match, game))
    return matches


def version_problems(match: dict[str, Any], game: str) -> Iterator[str]:
    seen: dict[int, dict[str, Any]] = {}
    for v, version in enumerate(match["versions"]):
        here = f"versions[{v}]: "
        if version["number"] in seen:
            yield here + _("version %(number)d appears twice.") % {"number": version["number"]}
        seen[version["number"]] = version
        if version["game"] != game:
            yield here + _("a result of %(game)r in a tournament of another game.") % {
                "game": version["game"]
            }
            continue
        try:
            MatchResult(*version["result"], game=game)
        except MatchResultError as e:
            yield here + say(e)
    confirmed = [n for n, v in seen.items() if v["status"] == "confirmed"]
    if len(confirmed) > 1:
        yield _("more than one confirmed version (%(numbers)s).") % {
            "numbers": ", ".join(map(str, confirmed))
        }
    elif match["confirmed_version"] is None and confirmed:
        yield _("version %(number)d is confirmed but the match does not count it.") % {
            "number": confirmed[0]
        }
    elif match["confirmed_version"] is not None and match["confirmed_version"] not in confirmed:
        yield _("the match counts version %(number)d, which is not a confirmed version.") % {
            "number": match["confirmed_version"]
        }
    if match["b"] is not None and (match["result_status"] == "confirmed") != bool(confirmed):
        yield _("result status %(status)r does not agree with its versions.") % {
            "status": match["result_status"]
        }
