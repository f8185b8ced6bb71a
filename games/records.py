"""Game records: PGN-like tag pairs, then numbered moves in canonical notation.

Pure (no Django): the text is built from plain data and parsed back; the database
adapter that gathers the data lives in :mod:`games.archive`.

Terminology and invariants:

* A record is ``[Tag "value"]`` pairs (several may share a line), a blank line, then the
  movetext: ``1. d F1-F5 T G7-F6 xE5 2. ...``. Move number ``n`` holds ply ``2n - 2``
  (dwarfs) and ``2n - 1`` (trolls); a forfeited turn is written ``--`` and still takes
  its ply, so the sides always alternate.
* ``Result`` is ``"<surviving dwarfs>-<surviving trolls>"`` (``"*"`` while unfinished);
  ``Termination`` is the battle's finishing reason (``move_limit``, ``agreement``, ...).
* Tag values escape ``\\`` and ``"`` with a backslash, as PGN does.
* A battle played over the board whose moves were not entered has tags and no moves.
* Records of one tournament are concatenated, separated by a blank line; a record's tag
  lines are never separated by a blank line (it starts the movetext).

>>> text = build_record({"Event": 'The "Open"', "Result": "32-8"}, ["d F1-F5", None])
>>> print(text, end="")
[Event "The \\"Open\\""]
[Result "32-8"]
<BLANKLINE>
1. d F1-F5 --
>>> parse_record(text).moves
('d F1-F5', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .thud import (
    CapturePolicy,
    IllegalMoveError,
    InvalidMoveError,
    Position,
    format_move,
    parse_move,
)
from .thud.notation import parse_move_text

FORFEIT = "--"
#: The tags written first, in this order; others follow in the caller's order.
TAG_ORDER = (
    "Event",
    "Round",
    "Table",
    "Battle",
    "Dwarfs",
    "Trolls",
    "Variant",
    "CapturePolicy",
    "Result",
    "Termination",
)
#: Tags written together on one line (the layout of the issue's example).
_TAG_LINES = (
    ("Event",),
    ("Round", "Table", "Battle"),
    ("Dwarfs", "Trolls"),
    ("Variant", "CapturePolicy"),
    ("Result", "Termination"),
)
_WIDTH = 79

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\\r\n]|\\.)*)"\s*\]')
_SQ = r"[A-HJ-Pa-hj-p](?:1[0-5]|[1-9])"
_TOKEN_RE = re.compile(
    rf"(?P<number>\d+)\s*\.(?:\.\.)?"
    rf"|(?P<forfeit>--)"
    rf"|(?P<move>[dDtT]\s*{_SQ}\s*-\s*{_SQ}(?:\s*[xX]\s*{_SQ})*)"
    rf"|(?P<result>\*)"
)


class RecordError(ValueError):
    """The text is not a game record (bad tags or movetext). ``move_number`` names the
    numbered move the problem is in, when there is one."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number


class ReplayError(RecordError):
    """A move of the record is not legal where it is played."""


@dataclass(frozen=True)
class Record:
    tags: dict[str, str] = field(default_factory=dict)
    #: Canonical notation per ply; ``None`` for a forfeited turn.
    moves: tuple[str | None, ...] = ()

    @property
    def policy(self) -> CapturePolicy:
        """The capture policy the record names (``subset`` when it names none)."""
        value = self.tags.get("CapturePolicy", CapturePolicy.SUBSET.value)
        try:
            return CapturePolicy(value)
        except ValueError:
            raise RecordError(f"unknown CapturePolicy {value!r}") from None


def move_number(ply: int) -> int:
    """The numbered move a ply belongs to (ply 0 and 1 are move 1)."""
    return ply // 2 + 1


def _escape(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _tag_lines(tags: Mapping[str, object]) -> list[str]:
    for name in tags:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise RecordError(f"not a tag name: {name!r}")
    lines = []
    done: set[str] = set()
    for group in _TAG_LINES:
        present = [n for n in group if n in tags]
        if present:
            lines.append(" ".join(f'[{n} "{_escape(tags[n])}"]' for n in present))
            done.update(present)
    lines += [f'[{n} "{_escape(v)}"]' for n, v in tags.items() if n not in done]
    return lines


def movetext(moves: Sequence[str | None]) -> str:
    """Numbered moves, wrapped at 79 columns without splitting a move.

    >>> movetext(["d F1-F5", "T G7-F6 xE5", None])
    '1. d F1-F5 T G7-F6 xE5 2. --'
    """
    units: list[str] = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            units.append(f"{move_number(ply)}.")
        units.append(FORFEIT if move is None else move)
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > _WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    if line:
        lines.append(line)
    return "\n".join(lines)


def build_record(tags: Mapping[str, object], moves: Sequence[str | None] = ()) -> str:
    """The record's text: tag lines, a blank line, the movetext (if any), a newline."""
    ordered = {n: tags[n] for n in TAG_ORDER if n in tags}
    ordered |= {n: v for n, v in tags.items() if n not in ordered}
    text = "\n".join(_tag_lines(ordered)) + "\n"
    body = movetext(moves)
    return text + "\n" + (body + "\n" if body else "")


def build_records(records: Sequence[str]) -> str:
    """Several records as one file, separated by blank lines."""
    return "\n".join(records)


def _split(text: str) -> list[tuple[str, str]]:
    """``(tag section, movetext)`` pairs. A tag line starts a new record when it follows
    movetext or a blank line after tags (a record with no moves)."""
    sections: list[tuple[list[str], list[str]]] = []
    closed = True  # the current record's tag section is over
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            closed = True
            continue
        if stripped.startswith("["):
            if closed:
                sections.append(([], []))
                closed = False
            sections[-1][0].append(stripped)
        else:
            if not sections:
                raise RecordError('a record must start with tag pairs like [Event "..."]')
            sections[-1][1].append(stripped)
            closed = True
    return [("\n".join(tags), " ".join(body)) for tags, body in sections]


def _parse_tags(section: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    pos = 0
    for line in section.splitlines():
        pos = 0
        while pos < len(line):
            if line[pos].isspace():
                pos += 1
                continue
            match = _TAG_RE.match(line, pos)
            if not match:
                raise RecordError(f"bad tag pair: {line[pos : pos + 40]!r}")
            name, value = match.group(1), _unescape(match.group(2))
            if name in tags:
                raise RecordError(f"tag {name} appears twice")
            tags[name] = value
            pos = match.end()
    return tags


def parse_movetext(text: str) -> tuple[str | None, ...]:
    """Moves in canonical (or compact) notation, ``--`` for a forfeit; the move numbers
    are optional but must be right when given.

    >>> parse_movetext("dF1-F5\\nT G7-F6 2. --")
    ('d F1-F5', 'T G7-F6', None)
    """
    moves: list[str | None] = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        number = move_number(len(moves))
        match = _TOKEN_RE.match(text, pos)
        if not match:
            bad = text[pos:].split(None, 1)[0]
            raise RecordError(f"move {number}: cannot read {bad!r}", number)
        pos = match.end()
        if match.group("number"):
            written = int(match.group("number"))
            if len(moves) % 2 or written != number:
                raise RecordError(f"move {number}: numbered {written}", number)
        elif match.group("forfeit"):
            moves.append(None)
        elif match.group("move"):
            try:
                moves.append(format_move(parse_move_text(match.group("move"))))
            except InvalidMoveError as exc:
                raise RecordError(f"move {number}: {exc}", number) from None
        elif text[pos:].strip():  # "*" ends the movetext
            raise RecordError(f"move {number}: text after the end marker '*'", number)
    return tuple(moves)


def parse_records(text: str) -> list[Record]:
    """Every record in ``text`` (one file may hold a whole tournament)."""
    records = []
    for tags, body in _split(text):
        records.append(Record(_parse_tags(tags), parse_movetext(body)))
    return records


def parse_record(text: str) -> Record:
    """Exactly one record; :class:`RecordError` (one line) for anything else."""
    records = parse_records(text)
    if not records:
        raise RecordError('no record found (expected tag pairs like [Event "..."])')
    if len(records) > 1:
        raise RecordError(f"{len(records)} records found; expected one")
    return records[0]


def replay_prefix(
    moves: Sequence[str | None], policy: CapturePolicy | str
) -> tuple[list[Position], ReplayError | None]:
    """Positions from the opening through every ply that replays, and the error that
    stopped it (``None`` when every move is legal): ``len(positions) - 1`` plies played."""
    position = Position.initial()
    positions = [position]
    for ply, text in enumerate(moves):
        number = move_number(ply)
        if text is None:
            if position.outcome(policy) is not None:
                return positions, ReplayError(
                    f"move {number}: a turn forfeited after the end", number
                )
            position = position.pass_turn()
        else:
            try:
                move = parse_move(text, position, policy)
            except (InvalidMoveError, IllegalMoveError) as exc:
                return positions, ReplayError(f"move {number}: {exc}", number)
            position = position.apply(move)
        positions.append(position)
    return positions, None


def replay(moves: Sequence[str | None], policy: CapturePolicy | str) -> list[Position]:
    """Positions from the opening through every ply: ``len(moves) + 1`` of them.

    A forfeited turn passes the turn. :class:`ReplayError` names the move number of the
    first move that is not legal where it is played.
    """
    positions, error = replay_prefix(moves, policy)
    if error is not None:
        raise error
    return positions
