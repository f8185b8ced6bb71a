"""Thud's game records: the format of :mod:`games.rules.records` with Thud's tags and moves.

Pure (no Django). Terminology and invariants (the rest is :mod:`games.rules.records`):

* Movetext: ``1. d F1-F5 T G7-F6 xE5 2. ...``. Move number ``n`` holds ply ``2n - 2``
  (dwarfs) and ``2n - 1`` (trolls); a forfeited turn is written ``--``.
* The players' tags are ``Dwarfs`` and ``Trolls``; ``Result`` is
  ``"<surviving dwarfs>-<surviving trolls>"`` (``"*"`` while unfinished);
  ``CapturePolicy`` names the rules the moves replay under.

>>> text = build_record({"Event": "Open", "Result": "32-8"}, ["d F1-F5", None])
>>> print(text, end="")
[Event "Open"]
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

from games.rules import records as _format
from games.rules.records import FORFEIT, RecordError, move_number, movetext
from games.thud.core.base import CapturePolicy, IllegalMoveError, InvalidMoveError
from games.thud.core.notation import format_move, parse_move, parse_move_text
from games.thud.core.position import Position

__all__ = [
    "FORFEIT",
    "SIDE_TAGS",
    "Record",
    "RecordError",
    "ReplayError",
    "build_record",
    "build_records",
    "movetext",
    "parse_movetext",
    "parse_record",
    "parse_records",
    "replay",
    "replay_prefix",
]

#: The players' tags, in turn order.
SIDE_TAGS = ("Dwarfs", "Trolls")
build_records = _format.build_records

_SQ = r"[A-HJ-Pa-hj-p](?:1[0-5]|[1-9])"
_TOKEN_RE = re.compile(
    rf"(?P<number>\d+)\s*\.(?:\.\.)?"
    rf"|(?P<forfeit>--)"
    rf"|(?P<move>[dDtT]\s*{_SQ}\s*-\s*{_SQ}(?:\s*[xX]\s*{_SQ})*)"
    rf"|(?P<result>\*)"
)


def build_record(tags: Mapping[str, object], moves: Sequence[str | None] = ()) -> str:
    """A Thud record's text (:func:`games.rules.records.build_record` with Thud's tags)."""
    return _format.build_record(tags, moves, SIDE_TAGS)


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
    return [Record(tags, parse_movetext(body)) for tags, body in _format.split_records(text)]


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
