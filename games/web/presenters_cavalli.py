"""Battaglia di Cavalli's presentation (``PRESENTATION``): its board presenter and pages.

A 10×10 board of numbers, rank 10 on top; the two knights; struck-out (unusable)
squares. A player to move clicks a target square; landing on a double with another
double left to strike out is a second step, like Thud's capture choice, on the board
itself: the doubles are chosen by the numbers on them. The replay pages
(``replay_context``, ``replay_diagram_context``) are declared with the board by
``PRESENTATION``, as Thud's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.translation import gettext as _

from games.cavalli import FILES, Board, Position, cells
from games.cavalli.game import CavalliGame
from games.models.battle import Battle
from games.rules.interface import InvalidMove
from games.rules.presentation import Presentation
from games.web.presenters import battle_context, choice_context, lazy_board, state_of

BOARD_TEMPLATE = "games/cavalli/board.html"
KNIGHT_LABELS = {"white": "♘", "black": "♞"}


def board_view(
    position: Position,
    *,
    targets: frozenset[str] = frozenset(),
    last: str = "",
    options: frozenset[str] = frozenset(),
    chosen: str = "",
) -> dict:
    """Rows of squares, rank 10 first. ``options``: the doubles the pending move may
    strike out (radio buttons of the confirm form, named by their numbers); ``chosen``:
    the pending move's landing square."""
    rows = []
    for row in cells(position):
        squares = []
        for cell in row:
            knight = cell.knight.value if cell.knight else ""
            classes = ["sq", "usable" if cell.usable else "struck"]
            if cell.double:
                classes.append("double")
            if knight:
                classes.append(f"has-{knight}")
            if cell.name in targets:
                classes.append("target")
            if cell.name == last:
                classes.append("last-to")
            if cell.name in options:
                classes.append("option")
            if cell.name == chosen:
                classes.append("chosen")
            if cell.name == chosen:
                label = _("%(square)s, the chosen destination (%(number)s)") % {
                    "square": cell.name,
                    "number": cell.label,
                }
            elif knight:
                label = _("%(side)s knight on %(square)s (%(number)s)") % {
                    "side": _("White") if knight == "white" else _("Black"),
                    "square": cell.name,
                    "number": cell.label,
                }
            elif cell.name in targets:
                label = _("%(square)s, legal move (%(number)s)") % {
                    "square": cell.name,
                    "number": cell.label,
                }
            elif cell.usable:
                label = _("%(square)s: %(number)s") % {"square": cell.name, "number": cell.label}
            else:
                label = _("%(square)s: struck out") % {"square": cell.name}
            squares.append(
                {
                    "name": cell.name,
                    "number": cell.label,
                    "knight": KNIGHT_LABELS.get(knight, ""),
                    "target": cell.name in targets,
                    "option": cell.name in options,
                    "option_label": _("Strike out %(number)s") % {"number": cell.label},
                    # One double must be chosen: the first offered is, until changed.
                    "checked": bool(options) and cell.name == min(options),
                    "classes": " ".join(classes),
                    "label": label,
                }
            )
        rows.append({"rank": row[0].name[1:], "squares": squares})
    return {"files": list(FILES), "rows": rows, "last_move": last}


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
    """The battle page's board panel. A pending choice (landing on ``choice_to`` with
    several doubles left) is a step on the board: each double a radio button of the
    confirm form, named and listed by the number on it."""
    position = state_of(battle)
    common = battle_context(battle, side, position, now=now)
    targets: frozenset[str] = frozenset()
    if common["my_turn"]:
        targets = frozenset(m.split()[0] for m in battle.rules.legal_moves(position))
    last = next((m.notation.split()[0] for m in reversed(common["moves"]) if m.notation), "")
    pending = choice_context(
        battle, choice if common["my_turn"] else None, selected="", to=choice_to
    )
    options = frozenset(pending["capture_squares"])
    board = lazy_board(
        lambda: board_view(
            position, targets=targets, last=last, options=options, chosen=pending["choice_to"]
        )
    )
    # Only a choice names its doubles: a spectator's board stays undrawn until the cache
    # misses (``lazy_board``).
    numbers = (
        [sq["number"] for row in board["rows"] for sq in row["squares"] if sq["option"]]
        if options
        else []
    )
    return (
        common
        | pending
        | {
            "board": board,
            "selected": "",
            "choice_from": "",
            "choice_prompt": _(
                "Landing on %(square)s: choose the double to strike out (%(numbers)s), "
                "then confirm."
            )
            % {"square": pending["choice_to"], "numbers": ", ".join(sorted(numbers))},
            "choice_input": "radio",
            "choice_button": _("Move and strike out"),
            "notation_help": _(
                "The square to land on, for example D1; then the double to strike out."
            ),
            "has_record_moves": any(m.notation for m in common["moves"]),
        }
    )


#: The board drawn on the rules page (any seed is a legal start; this one is fixed so the
#: page and its translations always show the same example).
RULES_SEED = 2002


def rules_context() -> dict:
    """The Cavalli rules page: a seeded starting board drawn."""
    return {"board": board_view(Position.initial(Board.from_seed(RULES_SEED)))}


def replay_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The replay page at ``ply`` (0 = the opening board, ``len(moves)`` = the last
    position), like Thud's (``games.web.presenters_thud.replay_context``): the moves replayed
    through the game from the battle's board; a move the game refuses stops the replay
    there, with ``broken_at`` naming its move number."""
    game = battle.rules
    positions = [game.initial_state({"board_seed": battle.board_seed})]
    landed: list[tuple[str, tuple[str, ...]]] = [("", ())]
    broken_at = None
    for i, move in enumerate(moves):
        try:
            if move is None:
                state, info = game.pass_turn(positions[-1]), None
            else:
                state, info = game.apply(positions[-1], move)
        except InvalidMove:
            broken_at = i // 2 + 1
            break
        positions.append(state)
        landed.append((info.notation.split()[0], info.captures) if info else ("", ()))
    moves = moves[: len(positions) - 1]
    last = len(moves)
    ply = max(0, min(ply, last))
    position = positions[ply]
    scores = game.scores(position)
    return {
        "battle": battle,
        "board": board_view(position, last=landed[ply][0]),
        "ply": ply,
        "last_ply": last,
        "prev_ply": max(ply - 1, 0),
        "next_ply": min(ply + 1, last),
        "plies": [
            {
                "ply": i + 1,
                "number": i // 2 + 1,
                "second": i % 2 == 1,
                "text": text,
                "current": i + 1 == ply,
            }
            for i, text in enumerate(moves)
        ],
        "forfeit": ply > 0 and moves[ply - 1] is None,
        "captures": list(landed[ply][1]),
        "points": tuple(scores[info.key] for info in game.sides),
        "side_to_move": game.side_to_move(position),
        "broken_at": broken_at,
    }


def replay_diagram_context(
    battle: Battle, moves: Sequence[str | None], ply: int, *, now: datetime
) -> dict:
    """The printable diagram of the position after ``ply`` plies of the record."""
    replay = replay_context(battle, moves, ply)
    keys = [info.key for info in battle.rules.sides]
    points = dict(zip(keys, replay["points"], strict=True))
    seats = [
        seat | {"points": points[seat["key"]], "to_move": seat["key"] == replay["side_to_move"]}
        for seat in board_context(battle, None, now=now)["seats"]
    ]
    return {
        "battle": battle,
        "board": replay["board"],
        "board_template": BOARD_TEMPLATE,
        "seats": seats,
        "plies": replay["ply"],
        "replay_ply": replay["ply"],
        "replay_running": replay["ply"] < replay["last_ply"],
    }


#: How Battaglia di Cavalli is drawn on the site (registered by ``GamesConfig.ready``).
PRESENTATION = Presentation(
    game=CavalliGame.key,
    board_template=BOARD_TEMPLATE,
    stylesheet="css/games/cavalli.css",
    rules_template="games/cavalli/rules.html",
    board_context=board_context,
    rules_context=rules_context,
    replay_context=replay_context,
    replay_diagram_context=replay_diagram_context,
)
