"""How Tiny is drawn on the site (``PRESENTATION``, at the end), modelled on Thud's and
Cavalli's presenters.

A 3×3 board, rank 3 on top. A player to move selects a pawn (a button named
``square``, posted to the touch view), then a square it may move to (a button named
``to``, posted to the move view): as Thud's board does. A Tiny move is never a choice
(``TinyGame.candidates`` gives at most one move), so there is no confirm step. The
replay pages (``replay_context``, ``replay_diagram_context``) and the rules page
(``rules_context``) are declared with the board's in ``PRESENTATION``, which the test
settings list in ``GAMES`` (``tests/settings.py``). Django lives here, not in the pure
package (``tests/games/tiny/ruff.toml``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from django.utils.translation import gettext as _

from games.models.battle import Battle
from games.rules.interface import InvalidMove
from games.rules.presentation import Presentation
from games.web.presenters import battle_context, choice_context, state_of
from tests.games.tiny.core.notation import FILES, format_square, parse_square
from tests.games.tiny.core.position import SIZE, Position, Side
from tests.games.tiny.game import TinyGame

PAWN_LABELS = {Side.GOLD: "●", Side.SILVER: "○"}


def _square(text: str) -> int | None:
    try:
        return parse_square(text) if text else None
    except ValueError:
        return None


def _label(side: Side | None, name: str) -> str:
    if side is Side.GOLD:
        return _("gold pawn on %(square)s") % {"square": name}
    if side is Side.SILVER:
        return _("silver pawn on %(square)s") % {"square": name}
    return _("empty square %(square)s") % {"square": name}


def board_view(
    position: Position,
    *,
    selectable: Collection[int] = (),
    targets: Collection[int] = (),
    selected: int | None = None,
    last: tuple[int, int] | None = None,
) -> dict:
    """Rows of squares, rank 3 first; ``selectable`` and ``targets`` become buttons."""
    rows = []
    for rank in reversed(range(SIZE)):
        squares = []
        for f in range(SIZE):
            sq = rank * SIZE + f
            side = position.piece_at(sq)
            name = format_square(sq)
            flags = {
                "selectable": sq in selectable,
                "target": sq in targets,
                "selected": sq == selected,
                "last_from": last is not None and sq == last[0],
                "last_to": last is not None and sq == last[1],
            }
            classes = ["sq", "dark" if (rank + f) % 2 else "light"]
            if side:
                classes.append(f"has-{side.value}")
            classes += [flag.replace("_", "-") for flag, on in flags.items() if on]
            label = _label(side, name)
            if flags["target"]:
                label = _("%(square)s, legal move") % {"square": label}
            squares.append(
                {
                    "name": name,
                    "pawn": PAWN_LABELS[side] if side else "",
                    "label": label,
                    "classes": " ".join(classes),
                    **flags,
                }
            )
        rows.append({"rank": rank + 1, "squares": squares})
    return {"files": list(FILES), "rows": rows}


def _last_move(moves: Sequence) -> tuple[int, int] | None:
    for stored in reversed(moves):
        if stored.notation:
            src, dst = _square(stored.notation[:2]), _square(stored.notation[3:])
            return None if src is None or dst is None else (src, dst)
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
    """The battle page's board panel for a viewer commanding ``side`` (None: spectator)."""
    position = state_of(battle)
    common = battle_context(battle, side, position, now=now)
    my_turn = common["my_turn"]
    selected = battle.touched_square or selected
    selected_sq = _square(selected)
    if selected_sq is None or position.piece_at(selected_sq) is not position.to_move:
        selected, selected_sq = "", None
    moves = position.legal_moves() if my_turn else []
    targets = {m.to_sq for m in moves if m.from_sq == selected_sq}
    selectable = set() if battle.touched_square else {m.from_sq for m in moves}
    pending = choice_context(battle, None, selected=selected, to="")
    board = board_view(
        position,
        selectable=selectable,
        targets=targets,
        selected=selected_sq,
        last=_last_move(common["moves"]),
    )
    return (
        common
        | pending
        | {
            "board": board,
            "selected": selected,
            "choice_from": "",
            "choice_prompt": "",
            "choice_input": "",
            "choice_button": "",
            "notation_help": _("For example A1-A2, or B2xC3 for a capture."),
            "has_record_moves": any(m.notation for m in common["moves"]),
        }
    )


def rules_context() -> dict:
    """The rules page: the opening position drawn."""
    return {"board": board_view(Position.initial())}


def replay_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The replay page at ``ply`` (0 = the opening), as Cavalli's: a move the game refuses
    stops the replay there, with ``broken_at`` naming its move number."""
    game = battle.rules
    positions = [game.initial_state()]
    landed: list[tuple[int, int] | None] = [None]
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
        landed.append(_last_move([info]) if info else None)
    moves = moves[: len(positions) - 1]
    last = len(moves)
    ply = max(0, min(ply, last))
    position = positions[ply]
    scores = game.scores(position)
    return {
        "battle": battle,
        "board": board_view(position, last=landed[ply]),
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
        "captures": [],
        "points": tuple(scores[info.key] for info in game.sides),
        "side_to_move": game.side_to_move(position),
        "broken_at": broken_at,
    }


def replay_diagram_context(
    battle: Battle, moves: Sequence[str | None], ply: int, *, now: datetime
) -> dict:
    """The printable diagram of the position after ``ply`` plies of the record."""
    replay = replay_context(battle, moves, ply)
    points = dict(zip([info.key for info in battle.rules.sides], replay["points"], strict=True))
    seats = [
        seat | {"points": points[seat["key"]], "to_move": seat["key"] == replay["side_to_move"]}
        for seat in board_context(battle, None, now=now)["seats"]
    ]
    return {
        "battle": battle,
        "board": replay["board"],
        "board_template": PRESENTATION.board_template,
        "seats": seats,
        "plies": replay["ply"],
        "replay_ply": replay["ply"],
        "replay_running": replay["ply"] < replay["last_ply"],
    }


#: How Tiny is drawn on the site (listed in the test settings' ``GAMES``).
PRESENTATION = Presentation(
    game=TinyGame.key,
    board_template="games/tiny/board.html",
    stylesheet="css/games/tiny.css",
    rules_template="games/tiny/rules.html",
    board_context=board_context,
    rules_context=rules_context,
    replay_context=replay_context,
    replay_diagram_context=replay_diagram_context,
)
