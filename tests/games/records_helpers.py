"""Shared by the record tests: a deterministic game with captures, played by the engine."""

from __future__ import annotations

from games.thud import Position, format_move


def greedy_game(plies: int, policy: str = "subset", *, forfeit_at: int | None = None):
    """``plies`` plies preferring the most captures (then the first move in order);
    ``forfeit_at``: that ply is a forfeited turn (``None``). Returns (moves, final)."""
    position = Position.initial()
    moves: list[str | None] = []
    for ply in range(plies):
        if ply == forfeit_at:
            moves.append(None)
            position = position.pass_turn()
            continue
        legal = position.legal_moves(policy)
        if not legal:
            break
        best = max(legal, key=lambda m: (len(m.captures), -legal.index(m)))
        moves.append(format_move(best))
        position = position.apply(best)
    return moves, position
