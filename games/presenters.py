"""Template context for the battle pages: board cells, targets, captures, move list.

Reads the stored position through the rules engine; decides nothing (legality is
decided again by ``games.battles`` when a move is submitted).
"""

from __future__ import annotations

from django.utils import timezone

from . import clock
from .models import Battle

SIZE = 15


def _engine():
    from games import thud

    return thud


def position_of(battle: Battle):
    thud = _engine()
    if battle.board:
        return thud.Position.from_diagram(battle.board)
    return thud.Position.initial()


def candidate_moves(battle: Battle, from_text: str, to_text: str) -> list:
    """The legal moves from one square to another (several when captures are a choice)."""
    thud = _engine()
    try:
        src, dst = thud.parse_square(from_text), thud.parse_square(to_text)
    except ValueError:
        return []
    position = position_of(battle)
    return [
        m
        for m in position.legal_moves(battle.capture_policy)
        if m.from_sq == src and m.to_sq == dst
    ]


def board_context(
    battle: Battle, side: str | None, *, selected: str = "", choice: list | None = None
) -> dict:
    thud = _engine()
    position = position_of(battle)
    my_turn = (
        side is not None
        and battle.status == Battle.Status.RUNNING
        and battle.side_to_move == side
        and battle.mode == Battle.Mode.ONLINE
    )
    selected = battle.touched_square or selected
    targets: set = set()
    if my_turn and selected:
        try:
            targets = set(position.targets_from(thud.parse_square(selected), battle.capture_policy))
        except ValueError:
            selected = ""
    mine = "d" if side == clock.DWARF else "T"
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            on = abs(r - 7) + abs(c - 7) <= 9
            name = thud.format_square((r, c)) if on else ""
            piece = position.piece_at((r, c)) if on else None
            cells.append(
                {
                    "on": on,
                    "name": name,
                    "piece": piece,
                    "stone": (r, c) == (7, 7),
                    "selectable": my_turn and piece == mine and not battle.touched_square,
                    "selected": on and name == selected,
                    "target": (r, c) in targets,
                }
            )
        rows.append(cells)
    capture_squares = []
    if choice:
        capture_squares = sorted(
            {thud.format_square(sq) for m in choice for sq in m.captures},
        )
    moves = list(battle.moves.all())
    return {
        "battle": battle,
        "side": side,
        "my_turn": my_turn,
        "rows": rows,
        "selected": selected,
        "choice": choice,
        "choice_from": thud.format_square(choice[0].from_sq) if choice else "",
        "choice_to": thud.format_square(choice[0].to_sq) if choice else "",
        "capture_squares": capture_squares,
        "moves": moves,
        "dwarf_points": battle.dwarf_count,
        "troll_points": 4 * battle.troll_count,
        **clock_context(battle),
    }


def clock_context(battle: Battle) -> dict:
    now = timezone.now()
    snap = clock.snapshot(battle.clock_state, now)
    move_no = battle.ply + 1
    limit = battle.max_plies
    return {
        "snap": snap,
        "move_no": min(move_no, limit) if limit else move_no,
        "move_limit": limit,
        "remaining_s": (snap["remaining_ms"] or 0) / 1000,
    }
