"""Thud's presentation (``PRESENTATION``): its board presenter, replay and rules pages.

Reads the stored position through the rules engine; decides nothing (legality is
decided again by ``games.battles`` when a move is submitted). What every game's page
shares (players, scores, the clock) is ``games.web.presenters.battle_context``.

``board_view`` is the one board renderer's input (``templates/games/thud/board.html``): plain
rows of plain squares built from a :class:`~games.thud.Position`, used by the live board,
the printable diagram and anything that shows a position later (a replay). It reads no
database; ``board_context`` gathers what it needs from a battle.

Game records (and so replays) exist for tournament battles only, which are Thud's;
``PRESENTATION`` declares them, with the board's templates and style sheet
(``games.rules.presentation.Presentation``, registered by ``GamesConfig.ready``).
Django lives here, not in the pure engine package ``games/thud/`` (STYLE.md point 1).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from datetime import datetime

from django.utils.translation import gettext as _

from games.models.battle import Battle
from games.models.history import Move as StoredMove
from games.rules.presentation import Presentation
from games.thud import (
    FILES,
    SQUARES,
    Move,
    Position,
    Side,
    Square,
    format_move,
    format_square,
    parse_square,
)
from games.thud.core.board import SIZE, STONE, on_board
from games.thud.core.notation import parse_move_text
from games.thud.core.records import replay_prefix
from games.thud.game import ThudGame
from games.web.presenters import battle_context, choice_context, lazy_board

PIECE_NAMES = {"d": "dwarf", "T": "troll"}


def position_of(battle: Battle) -> Position:
    """The battle's stored position (its board's diagram; none yet: the opening)."""
    return _position_from(battle.board)


@functools.lru_cache(maxsize=4096)
def _position_from(diagram: str) -> Position:
    """A :class:`Position` never changes, so the one read from a diagram is shared: every
    spectator's battle page reads its battle's position, and a full hall reads the same
    few thousand again and again (issue 44)."""
    return Position.from_diagram(diagram) if diagram else Position.initial()


def last_move_of(moves: Sequence[StoredMove], position: Position) -> Move | None:
    """The latest stored move that moved a piece, if ``position`` still shows it.

    Forfeited turns and over-the-board plies carry no notation and are skipped, so after
    a forfeit the move before it stays marked. A move whose piece is not on its
    destination any more (the board was set by a referee) is not shown: a highlight that
    disagrees with the board is worse than none.
    """
    for stored in reversed(moves):
        if not stored.notation:
            continue
        try:
            move = parse_move_text(stored.notation)
        except ValueError:
            return None
        return move if position.piece_at(move.to_sq) == move.side.letter else None
    return None


def _square_label(piece: str, name: str) -> str:
    if piece == "dwarf":
        return _("dwarf on %(square)s") % {"square": name}
    if piece == "troll":
        return _("troll on %(square)s") % {"square": name}
    if piece == "thudstone":
        return _("Thudstone on %(square)s") % {"square": name}
    return _("empty square %(square)s") % {"square": name}


def _option_label(piece: str, name: str) -> str:
    """A capture choice's control on the board: what pressing it takes."""
    if piece == "troll":
        return _("Capture troll at %(square)s") % {"square": name}
    return _("Capture dwarf at %(square)s") % {"square": name}


def board_view(
    position: Position,
    *,
    last_move: Move | None = None,
    selectable: Collection[Square] = (),
    targets: Collection[Square] = (),
    selected: Square | None = None,
    options: Collection[Square] = (),
    chosen: Square | None = None,
) -> dict:
    """Rows of squares for ``_board.html``, row 0 (rank 1) first, files ``A``..``P``.

    Each square is a dict: ``on`` (part of the octagon), ``name`` (``"F1"``), ``piece``
    (``"dwarf"``, ``"troll"``, ``"thudstone"`` or ``""``: the id of its symbol in
    ``_pieces.svg.html``), ``label`` (its accessible name),
    ``classes`` (CSS classes), and the flags ``selectable``, ``target``, ``selected``,
    ``last_from``, ``last_to``, ``captured``, ``option`` (a piece the pending move may
    capture: a checkbox on the board, ``option_label`` its name) and ``chosen`` (the
    pending move's destination). ``selectable`` and ``targets`` say which squares become
    buttons; the caller decides who may act.
    """
    captured = set(last_move.captures) if last_move else set()
    rows = []
    for r in range(SIZE):
        squares = []
        for c in range(SIZE):
            sq = (r, c)
            if not on_board(r, c):
                squares.append({"on": False, "classes": "sq off"})
                continue
            letter = position.piece_at(sq)
            piece = "thudstone" if sq == STONE else PIECE_NAMES.get(letter or "", "")
            name = format_square(sq)
            flags = {
                "selectable": sq in selectable,
                "target": sq in targets,
                "selected": sq == selected,
                "last_from": last_move is not None and sq == last_move.from_sq,
                "last_to": last_move is not None and sq == last_move.to_sq,
                "captured": sq in captured,
                "option": sq in options,
                "chosen": sq == chosen,
            }
            classes = ["sq", "dark" if (r + c) % 2 else "light"]
            if piece:
                classes.append(f"has-{piece}")
            classes += [flag.replace("_", "-") for flag, on in flags.items() if on]
            if flags["chosen"]:
                label = _("%(square)s, the chosen destination") % {"square": name}
            elif flags["target"]:
                label = _("%(square)s, legal move") % {
                    "square": _square_label(piece, name) if piece else name
                }
            else:
                label = _square_label(piece, name)
            squares.append(
                {
                    "on": True,
                    "name": name,
                    "piece": piece,
                    "label": label,
                    "option_label": _option_label(piece, name) if flags["option"] else "",
                    "checked": flags["option"],  # every capture offered, until dropped
                    "classes": " ".join(classes),
                    **flags,
                }
            )
        rows.append({"rank": r + 1, "squares": squares})
    return {
        "files": list(FILES),
        "rows": rows,
        "last_move": format_move(last_move) if last_move else "",
    }


def _square_or_none(text: str) -> Square | None:
    try:
        return parse_square(text) if text else None
    except ValueError:
        return None


def board_context(
    battle: Battle,
    side: str | None,
    *,
    now: datetime,
    selected: str = "",
    choice: list | None = None,
    choice_from: str = "",
    choice_to: str = "",
) -> dict:
    """The battle page's board panel for a viewer commanding ``side`` (None: spectator).

    A pending capture choice (``choice``: the moves from ``choice_from`` to
    ``choice_to`` that differ in what they capture) is a step on the board: the
    destination marked, each piece it may capture a checkbox of the confirm form."""
    position = position_of(battle)
    common = battle_context(battle, side, position, now=now)
    my_turn = common["my_turn"]
    selected = battle.touched_square or choice_from or selected
    selected_sq = _square_or_none(selected)
    if selected_sq is None:
        selected = ""
    targets: set = set()
    if my_turn and selected_sq is not None:
        targets = set(position.targets_from(selected_sq, battle.capture_policy))
    selectable: frozenset = frozenset()
    if my_turn and not battle.touched_square:  # a touched piece is bound: no other choice
        selectable = position.dwarfs if side == Side.DWARF else position.trolls
    pending = choice_context(battle, choice if my_turn else None, selected=selected, to=choice_to)
    options = {sq for sq in map(_square_or_none, pending["capture_squares"]) if sq}
    moves = common["moves"]
    board = lazy_board(
        lambda: board_view(
            position,
            last_move=last_move_of(moves, position),
            selectable=selectable,
            targets=targets,
            selected=selected_sq,
            options=options,
            chosen=_square_or_none(pending["choice_to"]),
        )
    )
    squares = ", ".join(pending["capture_squares"])
    return (
        common
        | pending
        | {
            "board": board,
            "selected": selected,
            "choice_from": selected if pending["choice"] else "",
            "choice_prompt": _(
                "Moving to %(square)s: every marked piece (%(squares)s) is captured unless "
                "you unmark it; then confirm."
            )
            % {"square": pending["choice_to"], "squares": squares},
            "choice_input": "checkbox",
            "choice_button": _("Move and capture"),
            "notation_help": _(
                "For example d F1-F2, or just F1 F2; a troll's captures after it: T G7-F7 xF6."
            ),
            "has_record_moves": any(m.notation for m in moves),
        }
    )


def replay_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The replay page at ``ply`` (0 = the opening, ``len(moves)`` = the last position).

    ``moves`` is the battle's record (``games.archive.export.moves_of``). A move the engine
    refuses (a board set by hand) stops the replay there, with ``broken_at`` naming it.
    """
    positions, error = replay_prefix(moves, battle.capture_policy)
    moves = moves[: len(positions) - 1]
    last = len(moves)
    ply = max(0, min(ply, last))
    position = positions[ply]
    previous = moves[ply - 1] if ply else None
    last_move = parse_move_text(previous) if previous else None
    plies = [
        {
            "ply": i + 1,
            "number": i // 2 + 1,
            "second": i % 2 == 1,
            "text": text,
            "current": i + 1 == ply,
        }
        for i, text in enumerate(moves)
    ]
    return {
        "battle": battle,
        "board": board_view(position, last_move=last_move),
        "ply": ply,
        "last_ply": last,
        "prev_ply": max(ply - 1, 0),
        "next_ply": min(ply + 1, last),
        "plies": plies,
        "forfeit": ply > 0 and previous is None,
        "captures": [format_square(sq) for sq in last_move.captures] if last_move else [],
        "points": position.score(),
        "side_to_move": position.side_to_move.value,
        "broken_at": error.move_number if error else None,
    }


def replay_diagram_context(
    battle: Battle, moves: Sequence[str | None], ply: int, *, now: datetime
) -> dict:
    """The printable diagram of the position after ``ply`` plies of the record."""
    replay = replay_context(battle, moves, ply)
    points = dict(zip(("dwarf", "troll"), replay["points"], strict=True))
    seats = [
        seat | {"points": points[seat["key"]], "to_move": seat["key"] == replay["side_to_move"]}
        for seat in board_context(battle, None, now=now)["seats"]
    ]
    return {
        "battle": battle,
        "board": replay["board"],
        "board_template": "games/thud/board.html",
        "seats": seats,
        "plies": replay["ply"],
        "replay_ply": replay["ply"],
        "replay_running": replay["ply"] < replay["last_ply"],
    }


RULES_CELL = 20  # size of one square in the rules page's SVG user units


def rules_context() -> dict:
    """The Thud rules page: the starting position drawn, and its piece counts."""
    position = Position.initial()
    pieces = {"d": "dwarf", "T": "troll"}
    cells = [
        {
            "x": col * RULES_CELL,
            "y": row * RULES_CELL,
            "name": format_square((row, col)),
            "piece": "stone"
            if (row, col) == STONE
            else pieces.get(position.piece_at((row, col)) or "", ""),
        }
        for row, col in SQUARES
    ]
    return {
        "cells": cells,
        "cell": RULES_CELL,
        "half": RULES_CELL // 2,
        "files": [(c * RULES_CELL + RULES_CELL // 2, f) for c, f in enumerate(FILES)],
        "ranks": [(r * RULES_CELL + RULES_CELL // 2, r + 1) for r in range(15)],
        "dwarfs": position.dwarf_count,
        "trolls": position.troll_count,
    }


#: How Thud is drawn on the site (registered by ``GamesConfig.ready``).
PRESENTATION = Presentation(
    game=ThudGame.key,
    board_template="games/thud/board.html",
    stylesheet="css/games/thud.css",
    page_assets="games/thud/_pieces.svg.html",
    rules_template="games/thud/rules.html",
    board_context=board_context,
    rules_context=rules_context,
    replay_context=replay_context,
    replay_diagram_context=replay_diagram_context,
)
