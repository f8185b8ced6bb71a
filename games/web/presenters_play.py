"""What the battle page says around the board, for any game: the two clocks' faces, the
one-line rule of this battle's clock, the touched piece, the move list, and the
captures per side.

Pure over plain values (``now`` and the battle's fields are arguments, nothing reads the
database); :func:`games.web.presenters.battle_context` calls it. It names no game's pieces
(``tests/games/test_game_neutral.py``): sides come from ``Game.sides``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.rules.interface import InvalidMove

WARN_MS = 5_000  # the clock warns (visual, optional sound, announced) from here down


def _seconds(ms: int) -> str:
    """``15_000`` -> ``"15"``, ``2_500`` -> ``"2.5"``: whole seconds without a decimal."""
    return str(ms // 1000) if ms % 1000 == 0 else f"{ms / 1000:g}"


def rule_line(*, timing: str, timed: bool, think_ms: int, move_ms: int, commit_rule: str) -> str:
    """This battle's clock in one sentence, said before the first move.

    >>> rule_line(timing="quickfire", timed=True, think_ms=15000, move_ms=5000,
    ...           commit_rule="touch")
    '15 s to think; selecting a piece starts your 5 s to move it.'
    """
    if timing != "quickfire" or not timed:
        return ""
    values = {"think": _seconds(think_ms), "move": _seconds(move_ms)}
    if commit_rule == "touch":
        return _("%(think)s s to think; selecting a piece starts your %(move)s s to move it.") % (
            values
        )
    return _("%(think)s s to think, then %(move)s s more to move; you may change your piece.") % (
        values
    )


def timing_label(*, timing: str, timing_display: str, timed: bool) -> str:
    """The battle's timing as its page names it beside the game: no clock words for an
    untimed battle, and one word for a fast clock in any game (the model's choice label
    is a Thud tournament variant's name in some languages).

    >>> timing_label(timing="quickfire", timing_display="Quickfire", timed=False)
    'untimed'
    """
    if not timed:
        return _("untimed")
    if timing == "quickfire":
        return pgettext("battle clock", "Quickfire")
    return timing_display


def touch_line(*, touched: str, mine: bool, move_ms: int, timed: bool = True) -> str:
    """After a touch: which piece is bound, and for how long (the player's own words);
    an untimed battle says no time."""
    if not touched:
        return ""
    if mine and not timed:
        return _("You touched %(square)s: you must move it.") % {"square": touched}
    if mine:
        return _("You touched %(square)s: move it within %(move)s s.") % {
            "square": touched,
            "move": _seconds(move_ms),
        }
    return _("Your opponent touched %(square)s.") % {"square": touched}


def clock_faces(
    seats: Sequence[dict[str, Any]],
    *,
    viewer: str | None,
    snap: dict[str, Any],
    think_ms: int,
) -> list[dict[str, Any]]:
    """The two clocks, in the order they are drawn: a player's opponent above and their
    own below (as on a board seen from their side); for a spectator, the first side above.

    Each face: ``key``, ``index`` (0 first side, 1 second), ``player``, ``name`` (the
    side), ``mine``, ``active`` (its side is to move on a running clock) and ``time`` (the
    text drawn before the script counts down)."""
    running = snap.get("status") == "running"
    faces = []
    for index, seat in enumerate(seats):
        active = running and snap.get("side") == seat["key"]
        if active and snap.get("remaining_ms") is not None:
            time = _seconds(max(0, int(snap["remaining_ms"])) // 100 * 100)
        else:
            time = _seconds(think_ms) if running and snap.get("remaining_ms") is not None else "–"
        faces.append(
            {
                "key": seat["key"],
                "index": index,
                "player": seat["player"],
                "name": seat["name"],
                "mine": viewer == seat["key"],
                "active": active,
                "time": time,
            }
        )
    if viewer is not None and faces and faces[0]["mine"]:
        faces.reverse()
    return faces


def captures_by_side(moves: Iterable[Any], sides: Sequence[str]) -> dict[str, int]:
    """How many pieces (squares) each side has captured so far, by side key.

    >>> from types import SimpleNamespace as M
    >>> captures_by_side([M(side="a", captures=["B2", "C3"]), M(side="b", captures=[])],
    ...                  ["a", "b"])
    {'a': 2, 'b': 0}
    """
    counts = dict.fromkeys(sides, 0)
    for m in moves:
        if m.side in counts:
            counts[m.side] += len(m.captures or ())
    return counts


def captures_text(count: int) -> str:
    return ngettext("%(n)d capture", "%(n)d captures", count) % {"n": count}


def typed_move(game: Any, state: Any, text: str) -> str:
    """The canonical notation of the legal move a player typed, for any game.

    Takes the game's own notation (in any letter case, spaces squeezed) or just the squares:
    from and to (a game whose piece is implied, to only), then the squares to capture
    when there is a choice. Raises :class:`~games.rules.interface.InvalidMove` saying why not.
    """
    wanted = " ".join(text.split())
    if not wanted:
        raise InvalidMove(_("Type a move, for example one from the list of moves."))
    legal = game.legal_moves(state)
    for notation in legal:
        if notation.casefold() == wanted.casefold():
            return notation
    squares = []
    for token in re.findall(r"[A-Za-z]+[0-9]+", wanted):
        try:
            squares.append(game.square_name(token))
        except InvalidMove:
            continue
    found: list[str] = []
    for split in (2, 1):  # from and to; or to alone
        if len(squares) < split:
            continue
        src, dst = (squares[0], squares[1]) if split == 2 else ("", squares[0])
        chosen = set(squares[split:])
        for info in game.candidates(state, src, dst):
            if not chosen or set(info.captures) == chosen:
                found.append(info.notation)
        if found:
            break
    if len(found) == 1:
        return found[0]
    if found:
        return_text = ", ".join(found)
        raise InvalidMove(
            _("Several moves fit “%(text)s”: %(moves)s. Type the one you mean.")
            % {"text": wanted, "moves": return_text}
        )
    raise InvalidMove(_("“%(text)s” is not a legal move here.") % {"text": wanted})
