"""Game records: tag pairs, then numbered moves in a game's canonical notation.

Pure (no Django): this module writes records and splits their text; reading a game's
movetext back and replaying it is the game's own (``games.thud.core.records``). The database
adapter that gathers a battle's data lives in :mod:`games.archive.export`.

Terminology and invariants:

* A record is ``[Tag "value"]`` pairs (several may share a line), a blank line, then the
  movetext: numbered moves, move number ``n`` holding ply ``2n - 2`` (the first side)
  and ``2n - 1`` (the second side); a forfeited turn is written ``--`` and still takes
  its ply, so the sides always alternate.
* The two players' tags (named by the game) follow ``Battle``; ``Result`` holds the two
  result numbers ``"<first>-<second>"`` (``"*"`` while unfinished); ``Termination`` is
  the battle's finishing reason (``move_limit``, ``agreement``, ...).
* Tag values escape ``\\`` and ``"`` with a backslash, as PGN does.
* A battle played over the board whose moves were not entered has tags and no moves.
* Records of one tournament are concatenated, separated by a blank line; a record's tag
  lines are never separated by a blank line (it starts the movetext).

>>> text = build_record({"Event": 'The "Open"', "Result": "3-1"}, ["C1", None])
>>> print(text, end="")
[Event "The \\"Open\\""]
[Result "3-1"]
<BLANKLINE>
1. C1 --
>>> split_records(text)
[({'Event': 'The "Open"', 'Result': '3-1'}, '1. C1 --')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

FORFEIT = "--"
#: The tags written first, in this order (the players' tags, named by the game, are
#: written after ``Battle``); others follow in the caller's order.
_HEAD = ("Event", "Round", "Table", "Battle")
_TAIL = ("Variant", "CapturePolicy", "Result", "Termination")
_WIDTH = 79

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\\r\n]|\\.)*)"\s*\]')


class RecordError(ValueError):
    """The text is not a game record (bad tags or movetext). ``move_number`` names the
    numbered move the problem is in, when there is one."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number


def move_number(ply: int) -> int:
    """The numbered move a ply belongs to (ply 0 and 1 are move 1)."""
    return ply // 2 + 1


def _escape(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _tag_lines(tags: Mapping[str, object], side_tags: Sequence[str]) -> list[str]:
    for name in tags:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise RecordError(f"not a tag name: {name!r}")
    lines = []
    done: set[str] = set()
    for group in (("Event",), ("Round", "Table", "Battle"), tuple(side_tags), _TAIL[:2], _TAIL[2:]):
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


def build_record(
    tags: Mapping[str, object], moves: Sequence[str | None] = (), side_tags: Sequence[str] = ()
) -> str:
    """The record's text: tag lines, a blank line, the movetext (if any), a newline.
    ``side_tags`` names the game's two player tags (they share a line after ``Battle``)."""
    order = (*_HEAD, *side_tags, *_TAIL)
    ordered = {n: tags[n] for n in order if n in tags}
    ordered |= {n: v for n, v in tags.items() if n not in ordered}
    text = "\n".join(_tag_lines(ordered, side_tags)) + "\n"
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


def split_records(text: str) -> list[tuple[dict[str, str], str]]:
    """Every record in ``text`` as ``(tags, movetext)``; the game reads the movetext."""
    return [(_parse_tags(tags), body) for tags, body in _split(text)]
