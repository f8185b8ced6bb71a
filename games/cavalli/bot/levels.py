"""Playing levels 1-5 and :func:`choose_move`, the bot's one entry point.

Every level runs the same search (:mod:`.search`); a level sets its share of the time
budget, a depth cap, and for the weak levels a seeded choice among the top moves with a
blunder rate (a uniformly random legal move). Level 5 is the full search within its
budget. For a given seed the choice is deterministic whenever the search is bounded by
depth or nodes rather than by the clock. The table ``LEVELS`` is this game's; the
checks and the pick are shared with the other engines (``games.rules.bot_levels``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cavalli.bot.search import MAX_DEPTH, Clock, Node, SearchResult, search
from games.cavalli.core.base import Move, Side
from games.cavalli.core.position import Position
from games.rules.bot_levels import Level, depth_cap, level_of, pick

LEVELS: dict[int, Level] = {
    1: Level(budget_share=0.3, max_depth=1, top=8, margin=3000, blunder_rate=0.4),
    2: Level(budget_share=0.5, max_depth=2, top=3, margin=400, blunder_rate=0.1),
    3: Level(budget_share=0.5, max_depth=3, top=1, margin=0, blunder_rate=0.0),
    4: Level(budget_share=0.6, max_depth=5, top=1, margin=0, blunder_rate=0.0),
    5: Level(budget_share=1.0, max_depth=MAX_DEPTH, top=1, margin=0, blunder_rate=0.0),
}


@dataclass(frozen=True)
class BotChoice:
    move: Move
    result: SearchResult


def root_node(position: Position) -> Node:
    """The search's node for ``position``: mask, mover, enemy, white moves, points ahead."""
    mover, enemy = position._raw()
    side = position.to_move
    diff = position.score(side) - position.score(side.other)
    return position._mask, mover, enemy, side is Side.WHITE, diff


def to_move(raw: tuple[int, int]) -> Move:
    to, choice = raw
    return Move(to, None if choice < 0 else choice)


def choose_move(
    position: Position,
    *,
    level: int = 5,
    seed: int = 0,
    clock: Clock,
    budget_ms: float = 1000,
    max_depth: int | None = None,
    node_limit: int | None = None,
    plies_left: int | None = None,
    all_scores: bool = False,
) -> BotChoice:
    """A legal move for the side to move; ``ValueError`` if it has none.

    ``max_depth`` lowers the level's depth cap; ``plies_left`` is the number of plies
    before the move limit ends the game (``None``: no limit); ``all_scores`` asks for an
    exact score of every root move (as the weak levels need anyway).
    """
    spec = level_of(LEVELS, level, plies_left)
    depth = depth_cap(spec, max_depth)
    result = search(
        position.board,
        root_node(position),
        clock=clock,
        budget_ms=budget_ms * spec.budget_share,
        max_depth=depth,
        node_limit=node_limit,
        plies_left=plies_left,
        all_scores=spec.weak or all_scores,
    )
    raw = pick(spec, seed, result.move, result.scores)
    return BotChoice(move=to_move(raw), result=result)
