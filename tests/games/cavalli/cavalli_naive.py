"""A deliberately naive Battaglia di Cavalli, written straight from the rules in issue 14.

It shares nothing with games.cavalli's rules code: it reads a position through its
public ``to_dict()`` form, names squares ``"C3"`` throughout, keeps sets of names and a
dict of numbers, and returns moves as notation strings. Slow and obvious on purpose; the
property tests compare the engine against it.

Also here: :func:`make_board`, which builds a hand-made board for the rule tests, and
:func:`random_playout`.
"""

from __future__ import annotations

import random

from games.cavalli import Board, Position, format_move
from games.cavalli.core.notation import parse_move

FILES = "ABCDEFGHIJ"
JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank}"


def all_names() -> list[str]:
    return [name(f, r) for r in range(1, 11) for f in range(10)]


def knight_targets(square: str | None) -> set[str]:
    if square is None:
        return set()
    f, r = FILES.index(square[0]), int(square[1:])
    return {name(f + df, r + dr) for df, dr in JUMPS if 0 <= f + df <= 9 and 1 <= r + dr <= 10}


def is_double(n: int) -> bool:
    return n // 10 == n % 10


def numbers_of(state: dict) -> dict[str, int]:
    # Documented mapping: the list is in square order A1, B1, ..., J1, A2, ..., J10.
    return {name(i % 10, i // 10 + 1): n for i, n in enumerate(state["board"])}


def naive_moves(pos: Position) -> set[str]:
    state = pos.to_dict()
    numbers = numbers_of(state)
    me = state["to_move"]
    them = "black" if me == "white" else "white"
    mine, theirs = state[me], state[them]
    unusable = set(state["unusable"])
    if mine is None:
        home = 1 if me == "white" else 10
        candidates = {name(f, home) for f in range(10)}
        attacked: set[str] = set()  # the attack rule is about jumps
    else:
        candidates = knight_targets(mine)
        attacked = knight_targets(theirs)
    moves = set()
    for dest in candidates:
        if dest in unusable or dest == theirs or dest in attacked:
            continue
        number = numbers[dest]
        if not is_double(number):
            moves.add(dest)
            continue
        gone = unusable | {mine, theirs, dest}
        options = [sq for sq, n in numbers.items() if is_double(n) and sq not in gone]
        if options:
            moves.update(f"{dest} x{sq}" for sq in options)
        else:
            moves.add(dest)
    return moves


def naive_apply(pos: Position, move: str) -> tuple:
    """The state after ``move`` (canonical text) as a comparable tuple."""
    state = pos.to_dict()
    numbers = numbers_of(state)
    where = {n: sq for sq, n in numbers.items()}
    me = state["to_move"]
    them = "black" if me == "white" else "white"
    dest, _, choice = move.partition(" x")
    unusable = set(state["unusable"])
    if state[me] is not None:
        unusable.add(state[me])
    number = numbers[dest]
    scores = dict(state["scores"])
    scores[me] += number
    if is_double(number):
        if choice:
            unusable.add(choice)
    else:
        reverse = int(f"{number:02d}"[::-1])
        if where[reverse] != state[them]:
            unusable.add(where[reverse])
    knights = {me: dest, them: state[them]}
    return (
        frozenset(unusable),
        knights["white"],
        knights["black"],
        them,
        scores["white"],
        scores["black"],
        state["ply"] + 1,
    )


def state_of(pos: Position) -> tuple:
    state = pos.to_dict()
    return (
        frozenset(state["unusable"]),
        state["white"],
        state["black"],
        state["to_move"],
        state["scores"]["white"],
        state["scores"]["black"],
        state["ply"],
    )


def naive_perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for text in naive_moves(pos):
        total += naive_perft(pos.apply(parse_move(text, pos)), depth - 1)
    return total


# --- test support ------------------------------------------------------------------------


def make_board(placed: dict[str, int]) -> Board:
    """A board with the given numbers on the given squares (``{"C3": 57}``) and every
    other number in increasing order on the remaining squares, A1 first."""
    assert len(set(placed.values())) == len(placed)
    rest = iter(n for n in range(100) if n not in placed.values())
    numbers = [placed[sq] if sq in placed else next(rest) for sq in all_names()]
    return Board(tuple(numbers))


def random_game(
    board_seed: int, seed: int, plies: int, double_bias: float = 0.0
) -> tuple[Position, list[str]]:
    """Play up to ``plies`` random legal moves (fewer if the game ends) on the seed's board;
    return the position and the moves played, in canonical notation. With ``double_bias``
    p, a landing on a double is preferred with probability p."""
    rng = random.Random(seed)
    pos = Position.initial(Board.from_seed(board_seed))
    history = []
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        doubles = [m for m in moves if m.choice is not None]
        pool = doubles if doubles and rng.random() < double_bias else moves
        move = rng.choice(pool)
        history.append(format_move(move))
        pos = pos.apply(move)
    return pos, history


def random_playout(board_seed: int, seed: int, plies: int, double_bias: float = 0.0) -> Position:
    return random_game(board_seed, seed, plies, double_bias)[0]


def replay(board: Board, history: list[str]) -> Position:
    pos = Position.initial(board)
    for text in history:
        pos = pos.apply(parse_move(text, pos))
    return pos
