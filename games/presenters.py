"""Template context for the battle pages: the board, targets, captures, move list.

``battle_context`` is what every game's page shares (players, scores, side names,
the clock); the rest of this module is Thud's board presenter (``ThudGame.presenter``);
Cavalli's is ``games.presenters_cavalli``.

Reads the stored position through the rules engine; decides nothing (legality is
decided again by ``games.battles`` when a move is submitted).

``board_view`` is the one board renderer's input (``templates/games/_board.html``): plain
rows of plain squares built from a :class:`~games.thud.Position`, used by the live board,
the printable diagram and anything that shows a position later (a replay). It reads no
database; ``board_context`` gathers what it needs from a battle.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import clock, thud
from .models import Battle
from .models import Move as StoredMove
from .records import replay_prefix
from .thud.board import SIZE, STONE, on_board
from .thud.notation import parse_move_text

PIECE_NAMES = {"d": "dwarf", "T": "troll"}


def position_of(battle: Battle) -> thud.Position:
    if battle.board:
        return thud.Position.from_diagram(battle.board)
    return thud.Position.initial()


def last_move_of(moves: Sequence[StoredMove], position: thud.Position) -> thud.Move | None:
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


def board_view(
    position: thud.Position,
    *,
    last_move: thud.Move | None = None,
    selectable: Collection[thud.Square] = (),
    targets: Collection[thud.Square] = (),
    selected: thud.Square | None = None,
) -> dict:
    """Rows of squares for ``_board.html``, row 0 (rank 1) first, files ``A``..``P``.

    Each square is a dict: ``on`` (part of the octagon), ``name`` (``"F1"``), ``piece``
    (``"dwarf"``, ``"troll"``, ``"thudstone"`` or ``""``: the id of its symbol in
    ``_pieces.svg.html``), ``label`` (its accessible name),
    ``classes`` (CSS classes), and the flags ``selectable``, ``target``, ``selected``,
    ``last_from``, ``last_to`` and ``captured``. ``selectable`` and ``targets`` say which
    squares become buttons; the caller decides who may act.
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
            name = thud.format_square(sq)
            flags = {
                "selectable": sq in selectable,
                "target": sq in targets,
                "selected": sq == selected,
                "last_from": last_move is not None and sq == last_move.from_sq,
                "last_to": last_move is not None and sq == last_move.to_sq,
                "captured": sq in captured,
            }
            classes = ["sq", "dark" if (r + c) % 2 else "light"]
            if piece:
                classes.append(f"has-{piece}")
            classes += [flag.replace("_", "-") for flag, on in flags.items() if on]
            squares.append(
                {
                    "on": True,
                    "name": name,
                    "piece": piece,
                    "label": _square_label(piece, name),
                    "classes": " ".join(classes),
                    **flags,
                }
            )
        rows.append({"rank": r + 1, "squares": squares})
    return {
        "files": list(thud.FILES),
        "rows": rows,
        "last_move": thud.format_move(last_move) if last_move else "",
    }


def presenter_for(battle: Battle):
    """The board presenter of the battle's game: ``(battle, side, **kw) -> context``."""
    return import_string(battle.rules.presenter)


def state_of(battle: Battle):
    """The battle's game state (the opening one before it starts)."""
    game = battle.rules
    if battle.board:
        return game.deserialise(battle.board)
    return game.initial_state({"board_seed": battle.board_seed})


def battle_context(battle: Battle, side: str | None, state) -> dict:
    """What the battle page shows for any game: who plays which side, the scores."""
    game = battle.rules
    points = battle.scores if battle.is_finished and battle.scores else game.scores(state)
    seats = []
    for index, info in enumerate(game.sides):
        if battle.is_casual:
            user = battle.first_user if index == 0 else battle.second_user
            player = user.get_username() if user else ""
        else:
            entry = battle.dwarfs if index == 0 else battle.trolls
            player = entry.player.name if entry else ""
        seats.append(
            {
                "key": info.key,
                "name": _(info.name),
                "player": player,
                "points": points.get(info.key, 0),
                "to_move": battle.side_to_move == info.key,
                "winner": battle.is_finished and battle.winner == info.key,
            }
        )
    result = ""
    if battle.is_finished and battle.mode == Battle.Mode.ONLINE:  # scored by the server
        won = [seat["name"] for seat in seats if seat["winner"]]
        result = _("%(side)s won") % {"side": won[0]} if won else _("Draw")
    my_turn = (
        side is not None
        and battle.status == Battle.Status.RUNNING
        and battle.side_to_move == side
        and battle.mode == Battle.Mode.ONLINE
    )
    return {
        "battle": battle,
        "side": side,
        "my_turn": my_turn,
        "game_name": _(game.name),
        "seats": seats,
        "result": result,
        "board_template": game.board_template,
        "moves": list(battle.moves.all()),
        **clock_context(battle),
    }


def board_context(
    battle: Battle,
    side: str | None,
    *,
    selected: str = "",
    choice: list | None = None,
    choice_from: str = "",
    choice_to: str = "",
) -> dict:
    """The battle page's board panel for a viewer commanding ``side`` (None: spectator)."""
    position = position_of(battle)
    common = battle_context(battle, side, position)
    my_turn = common["my_turn"]
    selected = battle.touched_square or selected
    selected_sq = None
    targets: set = set()
    if selected:
        try:
            selected_sq = thud.parse_square(selected)
        except ValueError:
            selected = ""
    if my_turn and selected_sq is not None:
        targets = set(position.targets_from(selected_sq, battle.capture_policy))
    selectable: frozenset = frozenset()
    if my_turn and not battle.touched_square:  # a touched piece is bound: no other choice
        selectable = position.dwarfs if side == thud.Side.DWARF else position.trolls
    capture_squares = sorted({sq for m in choice or () for sq in m.captures})
    moves = common["moves"]
    board = board_view(
        position,
        last_move=last_move_of(moves, position),
        selectable=selectable,
        targets=targets,
        selected=selected_sq,
    )
    return common | {
        "board": board,
        "selected": selected,
        "choice": choice,
        "choice_from": choice_from,
        "choice_to": choice_to,
        "choice_prompt": _("Choose the dwarfs to capture:"),
        "choice_input": "checkbox",
        "choice_button": _("Move and capture"),
        "capture_squares": capture_squares,
        "has_record_moves": any(m.notation for m in moves),
    }


def diagram_context(battle: Battle) -> dict:
    """The printable, read-only diagram of a battle's current position (any game)."""
    return presenter_for(battle)(battle, None) | {"plies": battle.ply}


def replay_diagram_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The printable diagram of the position after ``ply`` plies of the record."""
    replay = replay_context(battle, moves, ply)
    points = {"dwarf": replay["dwarf_points"], "troll": replay["troll_points"]}
    seats = [
        seat | {"points": points[seat["key"]], "to_move": seat["key"] == replay["side_to_move"]}
        for seat in presenter_for(battle)(battle, None)["seats"]
    ]
    return {
        "battle": battle,
        "board": replay["board"],
        "board_template": "games/_board.html",
        "seats": seats,
        "plies": replay["ply"],
        "replay_ply": replay["ply"],
        "replay_running": replay["ply"] < replay["last_ply"],
    }


def clock_context(battle: Battle) -> dict:
    now = timezone.now()
    snap = clock.snapshot(battle.clock_state, now)
    limit = battle.max_plies
    # Moves per side, as players count them ("Move 2 of 24 (dwarfs)"), whatever the unit.
    per_side = (limit + 1) // 2 if limit else None
    move_no = battle.ply // 2 + 1
    names = {info.key: _(info.name) for info in battle.rules.sides}
    return {
        "snap": snap,
        "side_to_move_name": names.get(snap["side"], snap["side"]),
        "side_names_json": json.dumps(names),
        "move_no": min(move_no, per_side) if per_side else move_no,
        "move_limit": per_side,
        "remaining_s": (snap["remaining_ms"] or 0) / 1000,
        "phase_label": PHASE_LABELS.get(snap["phase"], PHASE_LABELS.get(snap["status"], "")),
    }


PHASE_LABELS = {
    "think": gettext_lazy("Think"),
    "move": gettext_lazy("MOVE NOW"),
    clock.PAUSED: gettext_lazy("Paused"),
    clock.NEEDS_REFEREE: gettext_lazy("Waiting for a referee"),
    clock.FINISHED: gettext_lazy("Battle over"),
    clock.PENDING: gettext_lazy("Not started"),
}


def ply_in(text: str, moves: Sequence[str | None]) -> int | None:
    """``?ply=`` as a ply of the record (0 to the number of plies), else ``None``."""
    text = text.strip()
    if not text.isdigit() or int(text) > len(moves):
        return None
    return int(text)


def bad_ply_message(moves: Sequence[str | None]) -> str:
    return _("ply must be a whole number from 0 to %(last)d.") % {"last": len(moves)}


def replay_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The replay page at ``ply`` (0 = the opening, ``len(moves)`` = the last position).

    ``moves`` is the battle's record (``games.archive.moves_of``). A move the engine
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
            "side": "dwarf" if i % 2 == 0 else "troll",
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
        "captures": [thud.format_square(sq) for sq in last_move.captures] if last_move else [],
        "dwarf_points": position.score()[0],
        "troll_points": position.score()[1],
        "side_to_move": position.side_to_move.value,
        "broken_at": error.move_number if error else None,
    }
