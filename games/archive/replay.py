"""An archived battle re-derived, never trusted: its moves replayed through its game's
engine from the start position (``sections.battles`` of the archive; the section itself is
``games.archive.section``).

Terminology and invariants:
- ``replay_problems(battle)`` names what of an archived battle (the schema's JSON value)
  the engine does not reproduce: each move must be legal where it is played, by the side
  to move, written as the engine writes it (notation, kind, captures); the moves' plies
  are 0, 1, 2, … in order; the stored board is the replayed position, and so are the
  side to move, the ply, the pieces counted on the row and, once finished, the scores
  and the winner (as ``finishing`` decides them). A battle the game says is over must be
  finished. A battle without a board (over the board, or online and not started) has no
  scores or winner; its moves, when they were typed in, are replayed for legality. Reads
  no database: the game is the registry's, with the battle's rules options.
- ``as_history(battle)``: what is written. An archive is history: a battle that was
  running, paused or waiting for a referee is written finished as *not finished when
  archived* (``UNFINISHED``), nobody winning, with no clock (no deadline, no turn or
  pause times, no touched piece, no offers); a battle not started keeps no clock times
  either. So nothing imported is ever due to the clock's timer or sweep.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.battles.finishing import loss_of, winner_of
from games.engines import registry
from games.rules import clock
from games.rules.interface import Game, InvalidMove

#: ``finished_reason`` of a battle imported while it was still being played.
UNFINISHED = clock.REASON_UNFINISHED
FORFEIT = "forfeit"

#: Columns of a clock that runs or waits; an imported battle has none of them.
CLOCK_TIMES = ("turn_started_at", "think_ends_at", "deadline")
CLOCK_CLEARED: dict[str, Any] = {
    "touched_square": "",
    "paused_remaining_ms": None,
    "paused_think_remaining_ms": None,
    "paused_reason": "",
    "end_offered_by": "",
    "resume_asked_by": "",
    "resume_asked_version": None,
} | dict.fromkeys(CLOCK_TIMES)


def rules_of(battle: Mapping[str, Any]) -> Game | None:
    try:
        return registry.get(battle["game"], capture_policy=battle["capture_policy"])
    except (KeyError, ValueError):
        return None


def replay_problems(battle: Mapping[str, Any]) -> Iterator[str]:
    """What of ``battle`` the engine does not reproduce, first problem first."""
    game = rules_of(battle)
    if game is None:
        yield _("the capture policy %(policy)r is not one of its game's.") % {
            "policy": battle["capture_policy"]
        }
        return
    moves = battle["moves"]
    if [m["ply"] for m in moves] != list(range(len(moves))):
        yield _("its moves are not plies 0, 1, 2, … in order.")
        return
    if battle["status"] == clock.PENDING and moves:
        yield _("a battle not started has moves.")
        return
    if not battle["board"]:
        if problem := next(boardless_problems(battle), None):
            yield problem
        elif all(m["notation"] or m["kind"] == FORFEIT for m in moves):
            # Moves typed in after a battle over the board (``otb_moves``): legal, in
            # order. Clock presses carry no notation: there is nothing to replay then.
            yield from moves_problems(battle, game)
        return
    if battle["ply"] != len(moves):
        yield _("it is at ply %(ply)d but has %(count)d moves.") % {
            "ply": battle["ply"],
            "count": len(moves),
        }
        return
    state = yield from moves_problems(battle, game)
    if state is not None:
        yield from position_problems(battle, game, state)


def moves_problems(battle: Mapping[str, Any], game: Game) -> Generator[str, None, Any]:
    """The first move that does not replay; returns the position reached (``None``
    after a problem)."""
    state = game.initial_state({"board_seed": battle["board_seed"]})
    for n, move in enumerate(battle["moves"]):
        here = f"moves[{n}]: "
        if game.outcome(state) is not None:
            yield here + _("a move after the end of the game.")
            return None
        if move["side"] != game.side_to_move(state):
            yield here + _("played by %(side)r, but %(expected)r was to move.") % {
                "side": move["side"],
                "expected": game.side_to_move(state),
            }
            return None
        if move["kind"] == FORFEIT:
            if move["notation"] or move["captures"]:
                yield here + _("a forfeited turn with a move.")
                return None
            state = game.pass_turn(state)
            continue
        try:
            state, info = game.apply(state, move["notation"])
        except (InvalidMove, ValueError):
            yield here + _("%(move)r is not a legal move there.") % {"move": move["notation"]}
            return None
        if (info.notation, info.kind, list(info.captures)) != (
            move["notation"],
            move["kind"],
            move["captures"],
        ):
            yield here + _(
                "the game writes this move as %(move)r, %(kind)s, capturing %(captures)s."
            ) % {
                "move": info.notation,
                "kind": info.kind,
                "captures": ", ".join(info.captures) or "-",
            }
            return None
    return state


def boardless_problems(battle: Mapping[str, Any]) -> Iterator[str]:
    """A battle with no stored position: over the board, or online and never started."""
    if battle["mode"] == "online" and (battle["moves"] or battle["status"] != clock.PENDING):
        yield _("an online battle that was played has no board.")
    elif battle["scores"] or battle["winner"]:
        yield _("a battle without a board has scores or a winner.")


def position_problems(battle: Mapping[str, Any], game: Game, state: Any) -> Iterator[str]:
    if battle["board"] != game.serialise(state):
        yield _("its board is not the position its moves reach.")
        return
    if battle["side_to_move"] != game.side_to_move(state):
        yield _("its side to move is not the replayed position's.")
    for name, value in game.row_fields(state).items():
        if battle.get(name) != value:
            yield _("its %(field)s is %(value)r; its moves make it %(replayed)r.") % {
                "field": name,
                "value": battle.get(name),
                "replayed": value,
            }
    finished = battle["status"] == clock.FINISHED
    if game.outcome(state) is not None and not finished:
        yield _("the game is over after its moves, but the battle is not finished.")
    if not finished:
        return
    scores = game.scores(state)
    if battle["scores"] != scores:
        yield _("its scores are not the replayed position's (%(scores)s).") % {
            "scores": ", ".join(f"{side} {n}" for side, n in scores.items())
        }
        return
    loss = loss_of(
        game, finished_reason=battle["finished_reason"], side_to_move=battle["side_to_move"]
    )
    winner = winner_of(game, scores, loss)
    if battle["winner"] != winner:
        yield _("its winner is not the one its moves and its end make (%(winner)s).") % {
            "winner": winner or "-"
        }


def as_history(battle: Mapping[str, Any]) -> dict[str, Any]:
    """The battle's columns as an import writes them: never on a clock (module doc)."""
    fields = dict(battle)
    if battle["status"] == clock.FINISHED:
        return fields
    if battle["status"] != clock.PENDING:
        fields |= {
            "status": clock.FINISHED,
            "finished_reason": UNFINISHED,
            "winner": "",
            "scores": {},
            "awaits_players": False,
        }
    return fields | CLOCK_CLEARED
