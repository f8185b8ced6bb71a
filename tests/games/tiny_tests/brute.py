"""An independent Tiny, written again for the tests from the rules in words (a dict of
squares, moves as text): what the package is checked against. Nothing of the package."""

from __future__ import annotations

from collections import Counter
from functools import cache

FILES = "ABC"
WIN = 100_000

# A position: (side to move, the board as 9 chars, rank 1 first: "g", "s" or ".").
START = ("g", "ggg" + "..." + "sss")


def moves(pos: tuple[str, str]) -> list[tuple[str, tuple[str, str]]]:
    """(notation, next position) for every move, by origin then destination (squares
    counted rank by rank from A1), as the package lists them."""
    side, board = pos
    other = "s" if side == "g" else "g"
    step = 1 if side == "g" else -1
    found = []
    for i, piece in enumerate(board):
        if piece != side:
            continue
        r, f = divmod(i, 3)
        nr = r + step
        if nr not in (0, 1, 2):
            continue
        for nf in (f - 1, f, f + 1):
            if nf not in (0, 1, 2):
                continue
            j = nr * 3 + nf
            straight = nf == f
            if (straight and board[j] == ".") or (not straight and board[j] == other):
                cells = list(board)
                cells[i], cells[j] = ".", side
                text = f"{FILES[f]}{r + 1}{'-' if straight else 'x'}{FILES[nf]}{nr + 1}"
                found.append((text, (other, "".join(cells))))
    return found  # origins in order, each one's destinations in order


def points(board: str, side: str) -> int:
    far = 2 if side == "g" else 0
    return sum(3 if i // 3 == far else 1 for i, p in enumerate(board) if p == side)


def perft(pos: tuple[str, str], depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(new, depth - 1) for _m, new in moves(pos))


def endings(pos: tuple[str, str], plies: int = 0, found: Counter | None = None) -> Counter:
    found = Counter() if found is None else found
    nexts = moves(pos)
    if not nexts:
        found[plies, points(pos[1], "g"), points(pos[1], "s")] += 1
    for _m, new in nexts:
        endings(new, plies + 1, found)
    return found


def final(pos: tuple[str, str]) -> int:
    side, board = pos
    diff = 100 * (points(board, side) - points(board, "s" if side == "g" else "g"))
    return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0


@cache
def value(pos: tuple[str, str]) -> int:
    """The exact score for the side to move (the whole tree, no pruning)."""
    nexts = moves(pos)
    if not nexts:
        return final(pos)
    return max(-value(new) for _m, new in nexts)


def reachable() -> set[tuple[str, str]]:
    seen = set()
    todo = [START]
    while todo:
        pos = todo.pop()
        if pos in seen:
            continue
        seen.add(pos)
        todo += [new for _m, new in moves(pos)]
    return seen


def compact(pos: tuple[str, str]) -> str:
    """The package's text of a position, written from the rules' words."""
    side, board = pos
    rows = [board[r * 3 : r * 3 + 3] for r in (2, 1, 0)]
    return f"{'gold' if side == 'g' else 'silver'} {'/'.join(rows)}"
