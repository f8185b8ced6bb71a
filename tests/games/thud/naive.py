"""A deliberately naive Thud move generator, written straight from thud-rules.md.

It shares nothing with games.thud but the value types: a dict board, explicit loops,
itertools for capture subsets. Slow and obvious on purpose; the tests compare the engine
against it.
"""

from __future__ import annotations

from itertools import combinations

from games.thud import CapturePolicy, Move, Position, Side

DIRS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
STONE = (7, 7)


def exists(r: int, c: int) -> bool:
    return 0 <= r <= 14 and 0 <= c <= 14 and abs(r - 7) + abs(c - 7) <= 9


def board_of(pos: Position) -> dict[tuple[int, int], str]:
    board = {}
    for r in range(15):
        for c in range(15):
            if exists(r, c):
                board[(r, c)] = "."
    board[STONE] = "R"
    for sq in pos.dwarfs:
        board[sq] = "d"
    for sq in pos.trolls:
        board[sq] = "T"
    return board


def line_length(board, sq, dr, dc, piece):
    """Pieces of kind `piece` in the run from sq going (dr, dc), sq included."""
    n = 0
    r, c = sq
    while board.get((r, c)) == piece:
        n += 1
        r, c = r + dr, c + dc
    return n


def all_subsets(items):
    for k in range(len(items) + 1):
        yield from combinations(items, k)


def naive_moves(pos: Position, policy: CapturePolicy = CapturePolicy.SUBSET) -> set[Move]:
    board = board_of(pos)
    moves: set[Move] = set()
    side = pos.side_to_move
    if side is Side.DWARF:
        for sq, piece in board.items():
            if piece != "d":
                continue
            for dr, dc in DIRS:
                n = line_length(board, sq, -dr, -dc, "d")
                for k in range(1, 15):
                    to = (sq[0] + k * dr, sq[1] + k * dc)
                    path = [(sq[0] + i * dr, sq[1] + i * dc) for i in range(1, k)]
                    if to not in board or any(board[p] != "." for p in path):
                        break
                    if board[to] == ".":
                        moves.add(Move(side, sq, to, ()))
                    elif board[to] == "T" and k <= n:
                        moves.add(Move(side, sq, to, (to,)))
    else:
        for sq, piece in board.items():
            if piece != "T":
                continue
            for dr, dc in DIRS:
                n = line_length(board, sq, -dr, -dc, "T")
                for k in range(1, 15):
                    to = (sq[0] + k * dr, sq[1] + k * dc)
                    path = [(sq[0] + i * dr, sq[1] + i * dc) for i in range(1, k + 1)]
                    if any(board.get(p) != "." for p in path):
                        break
                    if k > n:
                        break
                    adjacent = sorted(
                        (to[0] + a, to[1] + b)
                        for a, b in DIRS
                        if board.get((to[0] + a, to[1] + b)) == "d"
                    )
                    shove = k >= 2
                    if shove and not adjacent:
                        continue
                    if policy == CapturePolicy.SUBSET:
                        options = [s for s in all_subsets(adjacent) if s or not shove]
                    elif policy == CapturePolicy.ALL_OR_NONE:
                        options = [tuple(adjacent)] if shove else [(), tuple(adjacent)]
                    else:
                        options = [tuple(adjacent)]
                    for caps in options:
                        moves.add(Move(side, sq, to, tuple(caps)))
    return moves


def naive_perft(pos: Position, depth: int, policy: CapturePolicy = CapturePolicy.SUBSET) -> int:
    if depth == 0:
        return 1
    return sum(naive_perft(pos.apply(m), depth - 1, policy) for m in naive_moves(pos, policy))


def random_playout(
    seed: int, plies: int, policy: CapturePolicy = CapturePolicy.SUBSET, capture_bias=0.5
) -> Position:
    """A reachable position: up to `plies` random legal moves from the opening, preferring
    captures with probability `capture_bias` so that mid-game shapes (hurls, shoves,
    trolls next to several dwarfs) turn up. Stops early when the battle ends."""
    import random

    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(plies):
        moves = pos.legal_moves(policy)
        if not moves or not pos.dwarfs or not pos.trolls:
            break
        captures = [m for m in moves if m.captures]
        pool = captures if captures and rng.random() < capture_bias else moves
        pos = pos.apply(rng.choice(pool))
    return pos
